// Runs a real Neo4j Community DBMS (2026.x or 5.26) in this JVM, via Neo4j's own in-process test server
// (org.neo4j.test:neo4j-harness). Used by ./neo4j-local when no Docker engine is available.
//
//   java -cp 'lib/*' Launcher.java [--bolt-port=7687] [--http-port=7474] [--dir=run/work]
//                                  [--pagecache-mb=512]
//
// The same settings can come from the environment: NEO4J_LOCAL_BOLT_PORT, NEO4J_LOCAL_HTTP_PORT,
// NEO4J_LOCAL_DIR, NEO4J_LOCAL_PAGECACHE_MB (command-line arguments win).
//
// What you get: Bolt on 127.0.0.1:<bolt port>, HTTP on 127.0.0.1:<http port>, authentication
// disabled (the harness default), and a fresh, empty database on every start (the harness creates
// a random folder under --dir and deletes it again on a clean shutdown). It prints exactly one
// line "READY bolt://127.0.0.1:<port>" once Bolt accepts connections, then runs until SIGTERM /
// SIGINT; a shutdown hook stops the DBMS cleanly.
//
// Local development and tests only: no authentication, no persistence.

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

public class Launcher {
    private static final String HOST = "127.0.0.1";

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (String arg : args) {
            if (arg.equals("-h") || arg.equals("--help")) {
                System.out.println("usage: java -cp 'lib/*' Launcher.java [--bolt-port=N] "
                        + "[--http-port=N] [--dir=PATH] [--pagecache-mb=N]");
                return;
            }
            if (!arg.startsWith("--") || !arg.contains("=")) {
                fail("unknown argument: " + arg);
            }
            int eq = arg.indexOf('=');
            opts.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        int boltPort = intOpt(opts, "bolt-port", "NEO4J_LOCAL_BOLT_PORT", 7687);
        int httpPort = intOpt(opts, "http-port", "NEO4J_LOCAL_HTTP_PORT", 7474);
        long pagecacheMb = intOpt(opts, "pagecache-mb", "NEO4J_LOCAL_PAGECACHE_MB", 512);
        Path dir = Path.of(strOpt(opts, "dir", "NEO4J_LOCAL_DIR", "run/work"))
                .toAbsolutePath().normalize();
        for (String key : opts.keySet()) {
            if (!key.equals("bolt-port") && !key.equals("http-port") && !key.equals("dir")
                    && !key.equals("pagecache-mb")) {
                fail("unknown option: --" + key);
            }
        }
        Files.createDirectories(dir);

        SocketAddress bolt = new SocketAddress(HOST, boltPort);
        SocketAddress http = new SocketAddress(HOST, httpPort);
        long started = System.nanoTime();
        System.out.printf("neo4j-local: starting Neo4j (harness) bolt=%s http=%s dir=%s pagecache=%dm%n",
                bolt, http, dir, pagecacheMb);
        System.out.flush();

        final Neo4j neo4j;
        try {
            neo4j = Neo4jBuilders.newInProcessBuilder(dir)
                    .withConfig(BoltConnector.enabled, true)
                    .withConfig(BoltConnector.listen_address, bolt)
                    .withConfig(BoltConnector.advertised_address, bolt)
                    .withConfig(HttpConnector.enabled, true)
                    .withConfig(HttpConnector.listen_address, http)
                    .withConfig(HttpConnector.advertised_address, http)
                    .withConfig(HttpsConnector.enabled, false)
                    .withConfig(GraphDatabaseSettings.pagecache_memory, pagecacheMb * 1024L * 1024L)
                    // Bolt waits 5 s + 5 s (Netty quiet periods) on shutdown by default; a
                    // throwaway test server does not need that.
                    .withConfig(BoltConnectorInternalSettings.thread_pool_shutdown_wait_time,
                            Duration.ofSeconds(1))
                    .withConfig(BoltConnectorInternalSettings.connection_shutdown_wait_time,
                            Duration.ofSeconds(1))
                    .build();
        } catch (Throwable t) {
            System.out.println("FAILED to start Neo4j: " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
            return;
        }

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("neo4j-local: shutting down");
            System.out.flush();
            long t0 = System.nanoTime();
            try {
                neo4j.close();
            } catch (Throwable t) {
                System.out.println("neo4j-local: error during shutdown: " + t);
            }
            System.out.printf("neo4j-local: stopped in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            System.out.flush();
            stopped.countDown();
        }, "neo4j-local-shutdown"));

        String version;
        try (var tx = neo4j.defaultDatabaseService().beginTx();
             var result = tx.execute("CALL dbms.components() YIELD versions, edition "
                     + "RETURN versions[0] + ' ' + edition AS v")) {
            version = String.valueOf(result.next().get("v"));
        } catch (Throwable t) {
            version = "unknown (" + t + ")";
        }
        double secs = (System.nanoTime() - started) / 1e9;
        System.out.printf("neo4j-local: Neo4j %s up in %.1f s; bolt %s, http %s%n",
                version, secs, neo4j.boltURI(), neo4j.httpURI());
        System.out.println("READY bolt://" + HOST + ":" + boltPort);
        System.out.flush();

        stopped.await(); // returns only while the JVM is shutting down
    }

    private static int intOpt(Map<String, String> opts, String key, String env, int dflt) {
        String raw = strOpt(opts, key, env, null);
        if (raw == null || raw.isBlank()) {
            return dflt;
        }
        try {
            return Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            fail("--" + key + " / " + env + " must be an integer, got: " + raw);
            return dflt;
        }
    }

    private static String strOpt(Map<String, String> opts, String key, String env, String dflt) {
        String v = opts.get(key);
        if (v == null) {
            v = System.getenv(env);
        }
        return (v == null || v.isBlank()) ? dflt : v;
    }

    private static void fail(String msg) {
        System.err.println("neo4j-local: " + msg);
        System.exit(2);
    }
}
