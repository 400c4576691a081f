package io.loadgen.drivers.stwmockdb;

/**
 * How one {@code stw-mockdb} operation behaves, with its property prefix and defaults. Constant;
 * any thread. Declaration order is the order {@link ModeTable} lays probabilities on [0, 1).
 */
enum Mode {
    FAST("fast", "0.9", "200us", "1ms", "returns after a short delay"),
    SLOW("slow", "0.09", "1ms", "10ms", "returns after a longer delay"),
    HICCUP("hiccup", "0.0099", "10ms", "50ms", "stalls its own thread only"),
    STOP_THE_WORLD("stw", "0.0001", "50ms", "200ms", "stalls every thread");

    /** All modes in ordinal order, without the copy {@code values()} makes. */
    static final Mode[] VALUES = values();

    final String key;
    final String defaultProbability;
    final String defaultMin;
    final String defaultMax;
    final String behaviour;

    Mode(String key, String defaultProbability, String defaultMin, String defaultMax, String behaviour) {
        this.key = key;
        this.defaultProbability = defaultProbability;
        this.defaultMin = defaultMin;
        this.defaultMax = defaultMax;
        this.behaviour = behaviour;
    }

    String probabilityProperty() {
        return "stw-mockdb." + key + ".probability";
    }

    String minProperty() {
        return "stw-mockdb." + key + ".min";
    }

    String maxProperty() {
        return "stw-mockdb." + key + ".max";
    }
}
