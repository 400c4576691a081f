/**
 * The {@code http} driver: HTTP/1.1 requests over keep-alive connections (https too) on Netty, one event
 * loop per issuer thread, as wrk's threads; and {@link io.loadgen.drivers.http.HttpTargetServer}, the local
 * server with a known answer that its tests, {@code loadgen http-server} and {@code bench/http-vs-wrk.sh} use.
 */
package io.loadgen.drivers.http;
