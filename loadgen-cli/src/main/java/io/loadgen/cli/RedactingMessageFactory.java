package io.loadgen.cli;

import io.loadgen.core.Secrets;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.message.MessageFactory2;
import org.apache.logging.log4j.message.ParameterizedMessageFactory;

/**
 * Log4j2's message factory for every logger of the process (set by {@code log4j2.messageFactory} in
 * {@code log4j2.component.properties}): Log4j2's own parameterized messages, each formatted through
 * {@link Secrets#redact}, so no log line shows a password, whoever logs it (loadgen, Lettuce, Netty). An
 * exception's stack trace is printed by the layout as it is; loadgen logs its driver exceptions' messages
 * only, and their traces at debug level. Stateless; any thread.
 */
public final class RedactingMessageFactory implements MessageFactory2 {
    private static final ParameterizedMessageFactory FORMAT = ParameterizedMessageFactory.INSTANCE;

    /** A formatted message with its secrets masked; the rest (format, parameters, throwable) as given. */
    private static final class Redacted implements Message {
        private static final long serialVersionUID = 1L;
        private final Message message;
        private transient String formatted;

        Redacted(Message message) {
            this.message = message;
        }

        @Override
        public String getFormattedMessage() {
            if (formatted == null) {
                formatted = Secrets.redact(message.getFormattedMessage());
            }
            return formatted;
        }

        @Override
        public String getFormat() {
            return message.getFormat();
        }

        @Override
        public Object[] getParameters() {
            return message.getParameters();
        }

        @Override
        public Throwable getThrowable() {
            return message.getThrowable();
        }
    }

    private static Message redacted(Message m) {
        return new Redacted(m);
    }

    @Override
    public Message newMessage(Object message) {
        return redacted(FORMAT.newMessage(message));
    }

    @Override
    public Message newMessage(String message) {
        return redacted(FORMAT.newMessage(message));
    }

    @Override
    public Message newMessage(String message, Object... params) {
        return redacted(FORMAT.newMessage(message, params));
    }

    @Override
    public Message newMessage(CharSequence charSequence) {
        return redacted(FORMAT.newMessage(charSequence));
    }

    @Override
    public Message newMessage(String message, Object p0) {
        return redacted(FORMAT.newMessage(message, p0));
    }

    @Override
    public Message newMessage(String message, Object p0, Object p1) {
        return redacted(FORMAT.newMessage(message, p0, p1));
    }

    @Override
    public Message newMessage(String message, Object p0, Object p1, Object p2) {
        return redacted(FORMAT.newMessage(message, p0, p1, p2));
    }

    @Override
    public Message newMessage(String message, Object p0, Object p1, Object p2, Object p3) {
        return redacted(FORMAT.newMessage(message, p0, p1, p2, p3));
    }

    @Override
    public Message newMessage(String message, Object p0, Object p1, Object p2, Object p3, Object p4) {
        return redacted(FORMAT.newMessage(message, p0, p1, p2, p3, p4));
    }

    @Override
    public Message newMessage(String message, Object p0, Object p1, Object p2, Object p3, Object p4, Object p5) {
        return redacted(FORMAT.newMessage(message, p0, p1, p2, p3, p4, p5));
    }

    @Override
    public Message newMessage(String message, Object p0, Object p1, Object p2, Object p3, Object p4, Object p5,
                              Object p6) {
        return redacted(FORMAT.newMessage(message, p0, p1, p2, p3, p4, p5, p6));
    }

    @Override
    public Message newMessage(String message, Object p0, Object p1, Object p2, Object p3, Object p4, Object p5,
                              Object p6, Object p7) {
        return redacted(FORMAT.newMessage(message, p0, p1, p2, p3, p4, p5, p6, p7));
    }

    @Override
    public Message newMessage(String message, Object p0, Object p1, Object p2, Object p3, Object p4, Object p5,
                              Object p6, Object p7, Object p8) {
        return redacted(FORMAT.newMessage(message, p0, p1, p2, p3, p4, p5, p6, p7, p8));
    }

    @Override
    public Message newMessage(String message, Object p0, Object p1, Object p2, Object p3, Object p4, Object p5,
                              Object p6, Object p7, Object p8, Object p9) {
        return redacted(FORMAT.newMessage(message, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9));
    }
}
