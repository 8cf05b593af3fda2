/*
 * @test
 * @summary H2's file never destroys or exposes a file that is not H2's: a symbolic link is not
 *          followed to a file, a link another user owns is not followed at all, a file that holds
 *          other data, belongs to another user or has a second name is refused and left as it
 *          was, and a directory every user can write without the sticky bit is refused. Each
 *          refusal is one line with the fix, a non-zero exit and no crash report. A named file
 *          ends in H2's mark, is reused by the next run and is mode 0600 whatever it was before.
 *          H2 is left out of core dumps: a crash with a 16G H2 writes a small crash report and core.
 *          On a RAM disk (tmpfs) H2's file is not preallocated unless asked: its storage is memory,
 *          which a container's limit would count, all of it, at start.
 * @library /lib /test/lib
 * @run main/othervm/timeout=900 TestTeraHeapFileSafety
 */

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

import org.teraheap.TeraHeap;

public class TestTeraHeapFileSafety {
    static final String MARK = "TeraHeap H2 file, format 1\n";
    static final long H2_BYTES = 64L << 20;
    static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    static Path scratch;

    public static void main(String[] args) throws Exception {
        scratch = Files.createDirectories(Paths.get("safety")).toAbsolutePath();
        linkToFile();
        danglingLink();
        linksOfAnotherUser();
        foreignFile();
        markedFileIsReusedAndPrivate();
        emptyFileIsTaken();
        fileOfAnotherUser();
        hardLinkedFile();
        worldWritableDirectory();
        coreDumpsLeaveH2Out();
        ramDiskNotPreallocated();
    }

    static OutputAnalyzer teraheap(Path path, String... more) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("-XX:+EnableTeraHeap", "-Xmx64m", "-XX:TeraHeapSize=64m",
                "-XX:TeraHeapRegionSize=1m", "-XX:TeraHeapPath=" + path));
        cmd.addAll(Arrays.asList(more));
        if (more.length == 0) {
            cmd.add("-version");
        }
        return TeraHeapProcess.run(cmd.toArray(new String[0]));
    }

    static Path precious(String name) throws Exception {
        Path p = scratch.resolve(name);
        Files.writeString(p, "somebody's data, not H2's\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
        return p;
    }

    static void assertUnchanged(Path p, String what) throws Exception {
        check(Files.readString(p).equals("somebody's data, not H2's\n"), what + ": its content is unchanged");
        check(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)).equals("rw-r--r--"),
                what + ": its mode is unchanged");
    }

    static void linkToFile() throws Exception {
        Path target = precious("target.txt");
        Path link = Files.createSymbolicLink(scratch.resolve("h2-link"), target);
        TeraHeapProcess.assertStartupError(teraheap(link),
                "-XX:TeraHeapPath=" + link + " is a symbolic link", "give the file's real path or a directory");
        assertUnchanged(target, "a link's target");
        // A path through the link with a trailing slash does not get around it.
        check(teraheap(Paths.get(link + "/")).getExitValue() != 0, "the link with a trailing slash is refused too");
        assertUnchanged(target, "a link's target");
    }

    static void danglingLink() throws Exception {
        Path target = scratch.resolve("made-through-link");
        Path link = Files.createSymbolicLink(scratch.resolve("dangling"), target);
        TeraHeapProcess.assertStartupError(teraheap(link), "-XX:TeraHeapPath=" + link + " is a symbolic link");
        check(!Files.exists(target, LinkOption.NOFOLLOW_LINKS), "no file is made where a dangling link points");
    }

    static void linksOfAnotherUser() throws Exception {
        Path dir = Files.createDirectories(scratch.resolve("linked-dir"));
        // The user's own link to a directory is followed: the unnamed file is made there.
        Path own = Files.createSymbolicLink(scratch.resolve("own-dir-link"), dir);
        teraheap(own).shouldHaveExitValue(0);
        try (var files = Files.list(dir)) {
            check(files.count() == 0, "the unnamed file made through the user's own link is gone");
        }
        if (!ROOT) {
            System.out.println("skipped: links owned by another user (needs root to give a link away)");
            return;
        }
        Path planted = Files.createSymbolicLink(scratch.resolve("planted-dir-link"), dir);
        giveAway(planted);
        TeraHeapProcess.assertStartupError(teraheap(planted), "-XX:TeraHeapPath=" + planted + " goes through "
                + planted + ", a symbolic link owned by another user", "give the real path");
        Path through = planted.resolve("h2.file");
        TeraHeapProcess.assertStartupError(teraheap(through), "goes through " + planted + ", a symbolic link owned by another user");
        check(!Files.exists(dir.resolve("h2.file")), "no file is made through another user's link");
        Path toFile = Files.createSymbolicLink(scratch.resolve("planted-file-link"), precious("target2.txt"));
        giveAway(toFile);
        TeraHeapProcess.assertStartupError(teraheap(toFile), "a symbolic link owned by another user");
        assertUnchanged(scratch.resolve("target2.txt"), "another user's link's target");
    }

    static void foreignFile() throws Exception {
        Path data = precious("data.db");
        TeraHeapProcess.assertStartupError(teraheap(data), "-XX:TeraHeapPath=" + data
                + " holds 26B of data that TeraHeap did not write", "name a new file or a directory");
        assertUnchanged(data, "a file of other data");
        // Even a file as long as a marked one, with the mark's bytes elsewhere, is not H2's.
        try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
            f.setLength(H2_BYTES + 4096);
            f.seek(H2_BYTES + 1);
            f.write(MARK.getBytes(StandardCharsets.US_ASCII));
        }
        TeraHeapProcess.assertStartupError(teraheap(data), "of data that TeraHeap did not write");
        check(Files.size(data) == H2_BYTES + 4096, "the long foreign file keeps its length");
    }

    /** Child: prints its H2 file's mode while the JVM holds it, after data was moved there. */
    public static class ShowMode {
        public static void main(String[] args) throws Exception {
            long[][] group = new long[64][];
            for (int i = 0; i < group.length; i++) {
                group[i] = new long[1024];
                Arrays.fill(group[i], i);
            }
            TeraHeap.tagRoot(group, 1);
            TeraHeap.move(1);
            System.gc();
            TeraHeapProcess.check(TeraHeap.isInH2(group[3]) && group[3][7] == 3, "the group is in H2");
            System.out.println("MODE " + PosixFilePermissions.toString(Files.getPosixFilePermissions(Paths.get(args[0]))));
        }
    }

    static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    static long allocatedBytes(Path p) throws Exception {
        Process stat = new ProcessBuilder("stat", "-c", "%b %B", p.toString()).start();
        String[] f = new String(stat.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim().split(" ");
        check(stat.waitFor() == 0, "stat " + p);
        return Long.parseLong(f[0]) * Long.parseLong(f[1]);
    }

    static void ramDiskNotPreallocated() throws Exception {
        Path shm = Paths.get("/dev/shm");
        if (!Files.isDirectory(shm) || !Files.getFileStore(shm).type().equals("tmpfs")) {
            System.out.println("skipped: a RAM disk (no tmpfs at /dev/shm)");
            return;
        }
        Path h2 = shm.resolve("teraheap-safety-" + ProcessHandle.current().pid() + ".h2");
        try {
            OutputAnalyzer out = teraheap(h2, "-Xlog:gc+init", "-version");
            out.shouldHaveExitValue(0);
            out.shouldContain("H2's file is on a RAM disk (tmpfs): its memory is taken as H2 fills");
            checkMarked(h2);
            check(allocatedBytes(h2) < (1L << 20), "on a tmpfs H2 takes no memory at start: "
                    + allocatedBytes(h2) + " bytes allocated");
            teraheap(h2, "-XX:+TeraHeapPreallocate", "-Xlog:gc+init", "-version").shouldHaveExitValue(0)
                    .shouldNotContain("on a RAM disk");
            check(allocatedBytes(h2) >= H2_BYTES, "-XX:+TeraHeapPreallocate allocates all of H2 on a tmpfs too: "
                    + allocatedBytes(h2) + " bytes");
        } finally {
            Files.deleteIfExists(h2);
        }
    }

    static void checkMarked(Path h2) throws Exception {
        check(Files.size(h2) == H2_BYTES + 4096, "a named file is H2 and one page of mark");
        byte[] tail = new byte[MARK.length()];
        try (RandomAccessFile f = new RandomAccessFile(h2.toFile(), "r")) {
            f.seek(H2_BYTES);
            f.readFully(tail);
        }
        check(new String(tail, StandardCharsets.US_ASCII).equals(MARK), "the named file ends in H2's mark");
    }

    static void markedFileIsReusedAndPrivate() throws Exception {
        Path h2 = scratch.resolve("h2.file");
        teraheap(h2).shouldHaveExitValue(0);
        check(mode(h2).equals("rw-------"), "a new named file is 0600");
        checkMarked(h2);
        // Made readable by others after the run: the next run takes it back to 0600 before writing.
        Files.setPosixFilePermissions(h2, PosixFilePermissions.fromString("rw-r--r--"));
        OutputAnalyzer out = teraheap(h2, ShowMode.class.getName(), h2.toString());
        out.shouldHaveExitValue(0);
        out.shouldContain("MODE rw-------");
        check(mode(h2).equals("rw-------"), "a reused named file stays 0600 after exit");
        checkMarked(h2);
        // Another size next time: the mark moves to the new end.
        OutputAnalyzer bigger = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx64m", "-XX:TeraHeapSize=128m",
                "-XX:TeraHeapRegionSize=1m", "-XX:TeraHeapPath=" + h2, "-version");
        bigger.shouldHaveExitValue(0);
        check(Files.size(h2) == (128L << 20) + 4096, "a larger H2 moves the mark to the new end");
        teraheap(h2).shouldHaveExitValue(0);
        checkMarked(h2);
    }

    static void emptyFileIsTaken() throws Exception {
        Path empty = scratch.resolve("empty.file");
        Files.createFile(empty);
        Files.setPosixFilePermissions(empty, PosixFilePermissions.fromString("rw-rw-rw-"));
        teraheap(empty).shouldHaveExitValue(0);
        check(mode(empty).equals("rw-------"), "an empty file taken for H2 is made 0600");
        checkMarked(empty);
    }

    static void fileOfAnotherUser() throws Exception {
        if (!ROOT) {
            System.out.println("skipped: a file of another user (needs root to give a file away)");
            return;
        }
        Path h2 = scratch.resolve("theirs.file");
        teraheap(h2).shouldHaveExitValue(0);
        giveAway(h2);
        TeraHeapProcess.assertStartupError(teraheap(h2), "-XX:TeraHeapPath=" + h2 + " belongs to another user",
                "give a path of your own or a directory");
        check(Files.getOwner(h2).getName().equals("nobody"), "another user's file keeps its owner");
        checkMarked(h2);
    }

    static void hardLinkedFile() throws Exception {
        Path h2 = scratch.resolve("linked.file");
        teraheap(h2).shouldHaveExitValue(0);
        Path alias = Files.createLink(scratch.resolve("alias.file"), h2);
        TeraHeapProcess.assertStartupError(teraheap(h2), "-XX:TeraHeapPath=" + h2 + " has 2 names (hard links)",
                "give a file of its own or a directory");
        checkMarked(alias);
        Files.delete(alias);
        teraheap(h2).shouldHaveExitValue(0);
    }

    static void worldWritableDirectory() throws Exception {
        Path open = Files.createDirectories(scratch.resolve("open-dir"));
        chmod("0777", open);
        TeraHeapProcess.assertStartupError(teraheap(open), "directory " + open
                + " is writable by every user and has no sticky bit", "chmod +t");
        TeraHeapProcess.assertStartupError(teraheap(open.resolve("h2.file")), "directory " + open
                + " is writable by every user and has no sticky bit");
        check(!Files.exists(open.resolve("h2.file")), "no file is made in such a directory");
        // With the sticky bit, as the system's temp directory has, others cannot touch the file.
        chmod("1777", open);
        teraheap(open).shouldHaveExitValue(0);
        teraheap(open.resolve("h2.file")).shouldHaveExitValue(0);
        check(mode(open.resolve("h2.file")).equals("rw-------"), "the named file there is 0600");
    }

    /** Child: prints the VmFlags of H2's mapping, then fills H1 until it dies of an OutOfMemoryError. */
    public static class CrashWithH2 {
        public static void main(String[] args) throws Exception {
            String flags = null;
            boolean inH2 = false;
            for (String line : Files.readAllLines(Paths.get("/proc/self/smaps"))) {
                if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                    inH2 = line.contains("teraheap-h2");
                } else if (inH2 && line.startsWith("VmFlags:")) {
                    flags = line.substring("VmFlags:".length()).trim();
                }
            }
            System.out.println("H2 VmFlags: " + flags);
            long[][] group = new long[256][];
            for (int i = 0; i < group.length; i++) {
                group[i] = new long[16 << 10];   // 128K each: 32M in H2
                Arrays.fill(group[i], i);
            }
            TeraHeap.tagRoot(group, 1);
            TeraHeap.move(1);
            System.gc();
            TeraHeapProcess.check(TeraHeap.isInH2(group[5]), "the group is in H2");
            System.out.println("crashing");
            System.out.flush();
            List<long[]> fill = new ArrayList<>();
            while (true) {
                fill.add(new long[1 << 16]);
            }
        }
    }

    static void coreDumpsLeaveH2Out() throws Exception {
        Path dir = Files.createDirectories(scratch.resolve("crash"));
        String pattern = Files.readString(Paths.get("/proc/sys/kernel/core_pattern")).trim();
        List<String> java = ProcessTools.createLimitedTestJavaProcessBuilder("-XX:+EnableTeraHeap", "-Xmx64m",
                "-XX:TeraHeapSize=16g", "-XX:-TeraHeapPreallocate", "-XX:TeraHeapPath=" + dir,
                "-XX:+CrashOnOutOfMemoryError", "-XX:+CreateCoredumpOnCrash", CrashWithH2.class.getName()).command();
        // 0x3f takes shared file mappings too, which the kernel's default (0x33) leaves out: H2 must
        // stay out of the core on its own advice.
        List<String> cmd = new ArrayList<>(List.of("sh", "-c",
                "ulimit -c unlimited && echo 0x3f > /proc/self/coredump_filter && exec \"$0\" \"$@\""));
        cmd.addAll(java);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        long start = System.nanoTime();
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        check(p.waitFor(300, TimeUnit.SECONDS), "the crashing JVM ends");
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        System.out.println(out);
        check(out.contains("crashing"), "the child got as far as the crash");
        check(out.matches("(?s).*H2 VmFlags:.* dd( |\n).*"), "H2's mapping is advised out of core dumps (dd)");
        File[] reports = dir.toFile().listFiles((d, n) -> n.startsWith("hs_err"));
        check(reports != null && reports.length == 1, "the crash wrote one crash report");
        check(reports[0].length() < (4 << 20), "the crash report is small: " + reports[0].length() + " bytes");
        check(Files.readString(reports[0].toPath()).contains("OutOfMemoryError"), "the report names the error");
        File[] cores = dir.toFile().listFiles((d, n) -> n.equals("core") || n.startsWith("core."));
        if (!pattern.equals("core") && !pattern.startsWith("core.")) {
            System.out.println("skipped: the core's size (core_pattern is '" + pattern + "', not a file here)");
        } else {
            check(cores != null && cores.length == 1, "the crash wrote a core in its directory");
            long coreBytes = cores[0].length();
            check(coreBytes < (4L << 30), "the core (" + (coreBytes >> 20) + "M) holds none of the 16G of H2");
            cores[0].delete();
        }
        check(seconds < 240, "the crash and its dump took " + seconds + " s");
    }

    static void giveAway(Path p) throws Exception {
        UserPrincipal nobody = p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).setOwner(nobody);
    }

    static void chmod(String mode, Path p) throws Exception {
        check(new ProcessBuilder("chmod", mode, p.toString()).inheritIO().start().waitFor() == 0, "chmod " + mode);
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new RuntimeException("failed: " + what);
        }
        System.out.println("ok: " + what);
    }
}
