package io.loadgen.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecretsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "redis://:PASSWORD@host:6379            | redis://:***@host:6379",
            "redis://user:pw@host                   | redis://user:***@host",
            "rediss://default:p%40ss@db.example/0   | rediss://default:***@db.example/0",
            "redis://secretonly@host                | redis://***@host",
            "redis://127.0.0.1:6379                 | redis://127.0.0.1:6379",
            "cannot connect to redis://:hunter2@10.0.0.1:6390 (refused) | cannot connect to redis://:***@10.0.0.1:6390 (refused)",
            "a=redis://:x@h b=http://u:y@h/p        | a=redis://:***@h b=http://u:***@h/p",
            "redis.password=hunter2 redis.timeout=1s | redis.password=*** redis.timeout=1s",
            "api_token=abc,auth.key=def             | api_token=***,auth.key=***",
            "mail user@example.com says hi          | mail user@example.com says hi",
    })
    void passwordsInUrisAndSecretPropertiesAreMaskedAndTheRestKept(String text, String redacted) {
        assertEquals(redacted, Secrets.redact(text));
    }

    @Test
    void aPropertyIsSecretByItsName() {
        for (String name : new String[]{"redis.password", "db.PASSWD", "client_secret", "x.token", "redis.auth"}) {
            assertTrue(Secrets.isSecretName(name), name);
            assertEquals("***", Secrets.redactProperty(name, "hunter2"), name);
        }
        assertFalse(Secrets.isSecretName("redis.uri"));
        assertEquals("redis://:***@h", Secrets.redactProperty("redis.uri", "redis://:pw@h"));
        assertEquals("4ms", Secrets.redactProperty("mockdb.delay", "4ms"));
    }

    @Test
    void textWithoutSecretsIsReturnedAsItIs() {
        String plain = "driver=mockdb target=1000ops/s threads=1";
        assertEquals(plain, Secrets.redact(plain));
        assertEquals(null, Secrets.redact(null));
    }

    @Test
    void longValuesAreQuotedByTheirStartAndLength() {
        String longValue = "x".repeat(5_000_000);
        assertEquals("x".repeat(80) + "… (5000000 chars)", Limits.quote(longValue));
        assertEquals("short", Limits.quote("short"));
    }
}
