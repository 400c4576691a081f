package io.loadgen.drivers.ycsb;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.drivers.support.Causes;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A YCSB binding loaded from its own jars: a child class loader over {@code ycsb.classpath} (whose parent is the
 * platform loader, so YCSB's core, its old HdrHistogram and Jackson 1, and the binding's client never meet
 * loadgen's classes), and method handles on {@code site.ycsb.DB}'s operations, its {@code Status} and
 * {@code ByteArrayByteIterator}, all resolved once when the driver opens. The handles are typed on
 * {@code Object} for the binding's own classes, so a call through one allocates nothing of its own.
 *
 * <p>Made on the main thread; the operation methods are then called from every worker thread, each on its own DB
 * instance (the binding's classes are its business: YCSB's client calls them the same way).
 */
final class YcsbBinding implements AutoCloseable {
    static final String DB_CLASS = "site.ycsb.DB";
    /** YCSB's status names, in the order of {@link #statusCode}'s codes; BATCHED_OK last. */
    static final List<String> STATUS_NAMES = List.of("OK", "ERROR", "NOT_FOUND", "NOT_IMPLEMENTED", "UNEXPECTED_STATE",
            "BAD_REQUEST", "FORBIDDEN", "SERVICE_UNAVAILABLE", "BATCHED_OK");
    static final int BATCHED_OK = STATUS_NAMES.indexOf("BATCHED_OK");

    private final URLClassLoader loader;
    private final String dbClass;
    private final MethodHandle newDb;
    private final MethodHandle setProperties;
    private final MethodHandle init;
    private final MethodHandle cleanup;
    private final MethodHandle read;
    private final MethodHandle scan;
    private final MethodHandle update;
    private final MethodHandle insert;
    private final MethodHandle delete;
    private final MethodHandle newBytes;
    private final MethodHandle statusName;
    private final MethodHandle statusDescription;
    /** YCSB's own Status constants, by {@link #STATUS_NAMES} index (null where this core lacks one). */
    private final Object[] statuses;

    private YcsbBinding(URLClassLoader loader, String dbClass, Class<?> type) throws ReflectiveOperationException {
        this.loader = loader;
        this.dbClass = dbClass;
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> db = Class.forName(DB_CLASS, false, loader);
        Class<?> status = Class.forName("site.ycsb.Status", false, loader);
        newDb = lookup.findConstructor(type, MethodType.methodType(void.class)).asType(MethodType.methodType(Object.class));
        setProperties = erased(lookup.findVirtual(db, "setProperties", MethodType.methodType(void.class, Properties.class)));
        init = erased(lookup.findVirtual(db, "init", MethodType.methodType(void.class)));
        cleanup = erased(lookup.findVirtual(db, "cleanup", MethodType.methodType(void.class)));
        read = erased(lookup.findVirtual(db, "read", MethodType.methodType(status, String.class, String.class, Set.class,
                Map.class)));
        scan = erased(lookup.findVirtual(db, "scan", MethodType.methodType(status, String.class, String.class, int.class,
                Set.class, Vector.class)));
        update = erased(lookup.findVirtual(db, "update", MethodType.methodType(status, String.class, String.class,
                Map.class)));
        insert = erased(lookup.findVirtual(db, "insert", MethodType.methodType(status, String.class, String.class,
                Map.class)));
        delete = erased(lookup.findVirtual(db, "delete", MethodType.methodType(status, String.class, String.class)));
        newBytes = lookup.findConstructor(Class.forName("site.ycsb.ByteArrayByteIterator", false, loader),
                MethodType.methodType(void.class, byte[].class, int.class, int.class))
                .asType(MethodType.methodType(Object.class, byte[].class, int.class, int.class));
        statusName = erased(lookup.findVirtual(status, "getName", MethodType.methodType(String.class)));
        statusDescription = erased(lookup.findVirtual(status, "getDescription", MethodType.methodType(String.class)));
        statuses = new Object[STATUS_NAMES.size()];
        for (int i = 0; i < statuses.length; i++) {
            try {
                statuses[i] = status.getField(STATUS_NAMES.get(i)).get(null);
            } catch (NoSuchFieldException olderCore) {
                // a core from before this status: a binding built against it cannot return it either
            }
        }
    }

    /**
     * Loads {@code dbClass} from {@code jars} and resolves what the driver calls.
     *
     * @throws BadInputException when site.ycsb.DB or the class is not in the jars, or the class is not a usable DB
     */
    static YcsbBinding load(String dbClass, List<Path> jars) {
        URLClassLoader loader = new URLClassLoader("ycsb", urls(jars), ClassLoader.getPlatformClassLoader());
        try {
            return new YcsbBinding(loader, dbClass, dbType(loader, dbClass, jars));
        } catch (LinkageError e) { // linking the class needs one the jars lack, or a newer Java
            closeQuietly(loader);
            throw openFailure(dbClass, e);
        } catch (RuntimeException | Error e) {
            closeQuietly(loader);
            throw e;
        } catch (ReflectiveOperationException e) {
            closeQuietly(loader);
            throw new BadInputException("the YCSB core in " + YcsbSettings.CLASSPATH + " lacks " + e.getMessage()
                    + ", which its site.ycsb.DB has from YCSB 0.17.0 on; list the lib folder of a YCSB release from 0.17.0"
                    + " on", e);
        }
    }

    /** The DB class, checked: in the jars, a public concrete site.ycsb.DB with a public no-argument constructor. */
    private static Class<?> dbType(ClassLoader loader, String dbClass, List<Path> jars) {
        Class<?> db;
        try {
            db = Class.forName(DB_CLASS, false, loader);
        } catch (ClassNotFoundException e) {
            boolean old = exists(loader, "com.yahoo.ycsb.DB");
            throw new BadInputException(DB_CLASS + " is not in " + YcsbSettings.CLASSPATH + " ("
                    + (old ? "its com.yahoo.ycsb.DB is YCSB before 0.17.0; loadgen runs bindings of YCSB 0.17.0 and later"
                    : "list YCSB's core jar too: the lib folder of the YCSB release, with lib/core-*.jar")
                    + "), e.g. " + YcsbSettings.EXAMPLE, e);
        }
        Class<?> type;
        try {
            type = Class.forName(dbClass, false, loader);
        } catch (ClassNotFoundException e) {
            List<String> near = similarClasses(jars, dbClass);
            throw new BadInputException("class " + Limits.quote(dbClass) + " (" + YcsbSettings.DB + ") is not in "
                    + YcsbSettings.CLASSPATH + "; " + (near.isEmpty() ? "" : "did you mean " + String.join(" or ", near)
                    + "? ") + "give the binding's DB class and list its lib folder, e.g. " + YcsbSettings.EXAMPLE, e);
        } catch (LinkageError e) {
            throw openFailure(dbClass, e);
        }
        if (!db.isAssignableFrom(type)) {
            throw new BadInputException("class " + dbClass + " (" + YcsbSettings.DB + ") is not a " + DB_CLASS
                    + "; give the binding's DB class (the one YCSB's bin/ycsb runs for it), e.g. -p " + YcsbSettings.DB
                    + "=site.ycsb.db.RedisClient");
        }
        if (Modifier.isAbstract(type.getModifiers()) || !Modifier.isPublic(type.getModifiers())) {
            throw new BadInputException("class " + dbClass + " (" + YcsbSettings.DB + ") is "
                    + (Modifier.isAbstract(type.getModifiers()) ? "abstract" : "not public")
                    + ", so YCSB could not run it either; give the binding's concrete DB class");
        }
        try {
            type.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new BadInputException("class " + dbClass + " (" + YcsbSettings.DB + ") has no public constructor"
                    + " without arguments, which YCSB makes each DB with; give the binding's DB class", e);
        } catch (LinkageError e) {
            throw openFailure(dbClass, e);
        }
        return type;
    }

    /**
     * A new DB instance with {@code properties}, initialised as YCSB's client thread does ({@code setProperties},
     * {@code init()}), with {@link #loader} as the thread's context class loader.
     *
     * @throws BadInputException when the binding cannot be made or its {@code init()} fails, naming why
     */
    Object open(Properties properties) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Object db = newDb.invokeExact();
            setProperties.invokeExact(db, properties);
            init.invokeExact(db);
            return db;
        } catch (Throwable t) {
            throw openFailure(dbClass, t);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Calls the DB's {@code cleanup()}, on this thread with the binding's context class loader. */
    void cleanup(Object db) throws Throwable {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            cleanup.invokeExact(db);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    ClassLoader loader() {
        return loader;
    }

    String dbClass() {
        return dbClass;
    }

    Object read(Object db, String table, String key, Set<String> fields, Map<String, Object> result) throws Throwable {
        return read.invokeExact(db, table, key, fields, result);
    }

    Object scan(Object db, String table, String startKey, int count, Set<String> fields, Vector<Object> result)
            throws Throwable {
        return scan.invokeExact(db, table, startKey, count, fields, result);
    }

    Object update(Object db, String table, String key, Map<String, Object> values) throws Throwable {
        return update.invokeExact(db, table, key, values);
    }

    Object insert(Object db, String table, String key, Map<String, Object> values) throws Throwable {
        return insert.invokeExact(db, table, key, values);
    }

    Object delete(Object db, String table, String key) throws Throwable {
        return delete.invokeExact(db, table, key);
    }

    /** A {@code site.ycsb.ByteArrayByteIterator} over {@code length} bytes of {@code bytes} from {@code offset}. */
    Object bytes(byte[] bytes, int offset, int length) throws Throwable {
        return (Object) newBytes.invokeExact(bytes, offset, length);
    }

    /**
     * Which of YCSB's statuses {@code status} is: its index in {@link #STATUS_NAMES}, found by identity with core's
     * constants (allocation-free), else by the name of one the binding made itself; -1 for null or another name.
     */
    int statusCode(Object status) throws Throwable {
        Object[] known = statuses;
        for (int i = 0; i < known.length; i++) {
            if (known[i] == status) {
                return status == null ? -1 : i;
            }
        }
        if (status == null) {
            return -1;
        }
        return STATUS_NAMES.indexOf((String) statusName.invokeExact(status));
    }

    /** A status for a person: {@code NAME (description)}; off the hot path. */
    String describe(Object status) {
        if (status == null) {
            return "the binding returned no status (null)";
        }
        try {
            String name = (String) statusName.invokeExact(status);
            String description = (String) statusDescription.invokeExact(status);
            return description == null ? name : name + " (" + description + ")";
        } catch (Throwable t) {
            return String.valueOf(status);
        }
    }

    @Override
    public void close() {
        closeQuietly(loader);
    }

    /** {@code handle} with every class of the binding's (site.ycsb.*) taken as Object, for invokeExact. */
    private static MethodHandle erased(MethodHandle handle) {
        MethodType type = handle.type();
        MethodType erased = type.erase();
        for (int i = 0; i < type.parameterCount(); i++) {
            Class<?> p = type.parameterType(i);
            if (p.getClassLoader() == null) { // the JDK's: String, Set, Map, Vector, Properties, int
                erased = erased.changeParameterType(i, p);
            }
        }
        if (type.returnType() == String.class || type.returnType() == void.class) {
            erased = erased.changeReturnType(type.returnType());
        }
        return handle.asType(erased);
    }

    /**
     * Why the binding could not be made or started, as one line: a class its jars lack, a Java too old for it, or
     * its {@code init()}'s failure (a database that is down, a property it needs).
     */
    static BadInputException openFailure(String dbClass, Throwable failure) {
        boolean wrapped = failure instanceof InvocationTargetException || failure instanceof ExceptionInInitializerError;
        Throwable t = wrapped && failure.getCause() != null ? failure.getCause() : failure;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof NoClassDefFoundError || c instanceof ClassNotFoundException) {
                String missing = String.valueOf(c.getMessage()).replace('/', '.');
                return new BadInputException(dbClass + " needs class " + Limits.quote(missing) + ", which is not in "
                        + YcsbSettings.CLASSPATH + "; list every folder of the binding's jars (its lib/, with the"
                        + " client library), e.g. " + YcsbSettings.EXAMPLE, failure);
            }
            if (c instanceof UnsupportedClassVersionError) {
                return new BadInputException(dbClass + " was built for a newer Java than this one ("
                        + Runtime.version().feature() + "): " + c.getMessage() + "; run loadgen on that Java", failure);
            }
        }
        if (t instanceof BadInputException bad) {
            return bad;
        }
        if (t instanceof LinkageError) {
            return new BadInputException(dbClass + " cannot be loaded from " + YcsbSettings.CLASSPATH + ": "
                    + Causes.rootMessage(t) + "; list the jars of one YCSB release (its lib/ and the binding's lib/)",
                    failure);
        }
        return new BadInputException(dbClass + "'s init() failed: " + Causes.rootMessage(t)
                + "; check that its database is up and the properties it reads (its README, given as -p KEY=VALUE)",
                failure);
    }

    private static URL[] urls(List<Path> jars) {
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            try {
                urls.add(jar.toAbsolutePath().toUri().toURL());
            } catch (MalformedURLException e) {
                throw new BadInputException(YcsbSettings.CLASSPATH + ": " + jar + " is not a usable path (" + e.getMessage()
                        + "); give the folder another way", e);
            }
        }
        return urls.toArray(new URL[0]);
    }

    private static boolean exists(ClassLoader loader, String name) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Classes in {@code jars} the user may have meant by {@code wanted}: the same simple name in another package,
     * else a {@code site.ycsb.db} class whose name contains it (a binding's name, {@code redis}, for its class).
     */
    static List<String> similarClasses(List<Path> jars, String wanted) {
        String simple = wanted.substring(wanted.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        Set<String> same = new LinkedHashSet<>();
        Set<String> containing = new LinkedHashSet<>();
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
                    String name = entries.nextElement().getName();
                    if (!name.endsWith(".class") || name.contains("$")) {
                        continue;
                    }
                    String className = name.substring(0, name.length() - ".class".length()).replace('/', '.');
                    String candidate = className.substring(className.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
                    if (candidate.equals(simple)) {
                        same.add(className);
                    } else if (className.startsWith("site.ycsb.db.") && candidate.contains(simple)) {
                        containing.add(className);
                    }
                }
            } catch (IOException e) {
                // an unreadable jar fails the load itself; no hint from it
            }
        }
        return (same.isEmpty() ? containing : same).stream().limit(3).toList();
    }

    private static void closeQuietly(URLClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            // the jars stay open until exit; nothing to tell the user
        }
    }
}
