package io.loadgen.core.gate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The JUnit report, parsed back as a CI dashboard would read it. */
class JUnitXmlTest {
    @TempDir
    Path dir;

    @Test
    void oneTestCasePerVerdictAndAFailureForEachFailedGate() throws Exception {
        List<Verdict> verdicts = List.of(
                new Verdict("READ.intended.p99 < 5ms", "4.2 ms", "< 5 ms", true),
                new Verdict("READ.intended.p99 < 5ms over 10s windows", "50 ms @ 120-130 s, 1 of 360 windows failed",
                        "< 5 ms", false),
                new Verdict("throughput > 9500/s", "9914/s", "> 9500/s", true));
        Path file = dir.resolve("gates.xml");
        JUnitXml.write(verdicts, "run & co.hlog", file);

        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
        Element suites = doc.getDocumentElement();
        assertEquals("testsuites", suites.getTagName());
        assertEquals("3", suites.getAttribute("tests"));
        assertEquals("1", suites.getAttribute("failures"));
        Element suite = (Element) suites.getElementsByTagName("testsuite").item(0);
        assertEquals("loadgen gate: run & co.hlog", suite.getAttribute("name"));
        assertEquals("3", suite.getAttribute("tests"));
        assertEquals("1", suite.getAttribute("failures"));
        assertEquals("0", suite.getAttribute("errors"));

        NodeList cases = suite.getElementsByTagName("testcase");
        assertEquals(3, cases.getLength());
        for (int i = 0; i < 3; i++) {
            Element c = (Element) cases.item(i);
            assertEquals(JUnitXml.CLASS_NAME, c.getAttribute("classname"));
            assertEquals(verdicts.get(i).rule(), c.getAttribute("name"));
            assertEquals(verdicts.get(i).passed() ? 0 : 1, c.getElementsByTagName("failure").getLength());
        }
        Element failure = (Element) ((Element) cases.item(1)).getElementsByTagName("failure").item(0);
        assertEquals("GateFailed", failure.getAttribute("type"));
        assertEquals("READ.intended.p99 < 5ms over 10s windows: observed 50 ms @ 120-130 s, 1 of 360 windows failed,"
                + " limit < 5 ms (failed)", failure.getAttribute("message"));
        assertEquals("observed: 50 ms @ 120-130 s, 1 of 360 windows failed\nlimit: < 5 ms", failure.getTextContent());
    }
}
