/**
 * The {@code ping} driver and its server: round trips of fixed-size messages over TCP or UDP with
 * Netty. {@link io.loadgen.drivers.ping.PingServer} echoes, optionally holding every reply for a
 * fixed delay, so a run against it has a known answer; {@link io.loadgen.drivers.ping.PingDriverProvider}
 * opens the async client that measures the round trips.
 */
package io.loadgen.drivers.ping;
