package io.loadgen.core.gate;

import io.loadgen.core.output.AtomicFile;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Writes verdicts as a JUnit XML report (the Ant/Surefire schema CI dashboards read), one test case
 * per verdict, so gates show up as tests: a failed gate is a {@code <failure>} whose message says
 * what was observed against which limit. Stateless; any thread.
 *
 * <pre>
 * &lt;testsuites name="loadgen gate" tests="2" failures="1" errors="0"&gt;
 *   &lt;testsuite name="loadgen gate: out.json" tests="2" failures="1" errors="0" skipped="0" time="0" timestamp="..."&gt;
 *     &lt;testcase classname="loadgen.gate" name="READ.intended.p99 &amp;lt; 5ms" time="0"/&gt;
 *     &lt;testcase classname="loadgen.gate" name="READ.errors &amp;lt; 0.1%" time="0"&gt;
 *       &lt;failure type="GateFailed" message="READ.errors &amp;lt; 0.1%: observed 0.2% (30 of 15000), limit &amp;lt; 0.1% (failed)"/&gt;
 *     &lt;/testcase&gt;
 *   &lt;/testsuite&gt;
 * &lt;/testsuites&gt;
 * </pre>
 */
public final class JUnitXml {
    /** The classname of every test case: CI dashboards group by it. */
    public static final String CLASS_NAME = "loadgen.gate";

    private JUnitXml() {
    }

    /** @param source names what was gated, e.g. the file, in the suite's name */
    public static void write(List<Verdict> verdicts, String source, Path file) throws IOException {
        AtomicFile.write(file, out -> write(verdicts, source, out));
    }

    public static void write(List<Verdict> verdicts, String source, OutputStream out) throws IOException {
        long failures = verdicts.stream().filter(v -> !v.passed()).count();
        try {
            XMLStreamWriter x = XMLOutputFactory.newInstance().createXMLStreamWriter(out, "UTF-8");
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuites");
            x.writeAttribute("name", "loadgen gate");
            counts(x, verdicts.size(), failures);
            x.writeCharacters("\n  ");
            x.writeStartElement("testsuite");
            x.writeAttribute("name", "loadgen gate: " + source);
            counts(x, verdicts.size(), failures);
            x.writeAttribute("skipped", "0");
            x.writeAttribute("time", "0");
            x.writeAttribute("timestamp", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
            for (Verdict v : verdicts) {
                testCase(x, v);
            }
            x.writeCharacters("\n  ");
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.flush();
            x.close();
        } catch (XMLStreamException e) {
            throw new IOException("cannot write the JUnit report: " + e.getMessage(), e);
        }
        out.flush();
    }

    private static void counts(XMLStreamWriter x, int tests, long failures) throws XMLStreamException {
        x.writeAttribute("tests", Integer.toString(tests));
        x.writeAttribute("failures", Long.toString(failures));
        x.writeAttribute("errors", "0");
    }

    private static void testCase(XMLStreamWriter x, Verdict v) throws XMLStreamException {
        x.writeCharacters("\n    ");
        if (v.passed()) {
            x.writeEmptyElement("testcase");
            caseAttributes(x, v);
            return;
        }
        x.writeStartElement("testcase");
        caseAttributes(x, v);
        x.writeCharacters("\n      ");
        x.writeStartElement("failure");
        x.writeAttribute("type", "GateFailed");
        x.writeAttribute("message", v.message());
        x.writeCharacters("observed: " + v.observed() + "\nlimit: " + v.limit());
        x.writeEndElement();
        x.writeCharacters("\n    ");
        x.writeEndElement();
    }

    private static void caseAttributes(XMLStreamWriter x, Verdict v) throws XMLStreamException {
        x.writeAttribute("classname", CLASS_NAME);
        x.writeAttribute("name", v.rule());
        x.writeAttribute("time", "0");
    }
}
