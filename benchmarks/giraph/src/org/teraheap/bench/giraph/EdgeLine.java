package org.teraheap.bench.giraph;

import java.io.IOException;

/**
 * One line of an LDBC Graphalytics edge list ({@code .e} file): {@code src dst [weight]},
 * separated by spaces or tabs, vertex ids longs, the weight a double (1.0 when missing).
 * Lines starting with {@code #} and blank lines carry no edge.
 *
 * <p>Shared by the Giraph input format and {@link Reference}, so that both read a file the
 * same way, down to the double a weight parses to.
 */
final class EdgeLine {
    long source;
    long target;
    double weight;

    /**
     * Parses {@code line} into this object.
     *
     * @return false for a comment or blank line (the fields are then unchanged)
     * @throws IOException for a line that is neither an edge nor a comment
     */
    boolean parse(CharSequence line) throws IOException {
        int n = line.length();
        int i = skipBlanks(line, 0);
        if (i == n || line.charAt(i) == '#') {
            return false;
        }
        int end = skipToken(line, i);
        long src = parseLong(line, i, end);
        i = skipBlanks(line, end);
        if (i == n) {
            throw bad(line, "needs a target vertex");
        }
        end = skipToken(line, i);
        long dst = parseLong(line, i, end);
        i = skipBlanks(line, end);
        double w = 1.0;
        if (i < n) {
            end = skipToken(line, i);
            try {
                w = Double.parseDouble(line.subSequence(i, end).toString());
            } catch (NumberFormatException e) {
                throw bad(line, "bad weight");
            }
            if (skipBlanks(line, end) != n) {
                throw bad(line, "has more than three fields");
            }
        }
        source = src;
        target = dst;
        weight = w;
        return true;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static int skipBlanks(CharSequence s, int i) {
        while (i < s.length() && isBlank(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int skipToken(CharSequence s, int i) {
        while (i < s.length() && !isBlank(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** Parses without a substring: Giraph calls this once per edge. */
    private static long parseLong(CharSequence s, int from, int to) throws IOException {
        boolean negative = s.charAt(from) == '-';
        int i = negative || s.charAt(from) == '+' ? from + 1 : from;
        if (i == to || to - i > 19) {
            // Empty, or too long for the fast path: let Long.parseLong judge.
            return parseLongSlow(s, from, to);
        }
        long value = 0;
        for (; i < to; i++) {
            int digit = s.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                throw bad(s, "bad vertex id");
            }
            value = value * 10 + digit;
            if (value < 0) {
                return parseLongSlow(s, from, to);
            }
        }
        return negative ? -value : value;
    }

    private static long parseLongSlow(CharSequence s, int from, int to) throws IOException {
        try {
            return Long.parseLong(s.subSequence(from, to).toString());
        } catch (NumberFormatException e) {
            throw bad(s, "bad vertex id");
        }
    }

    private static IOException bad(CharSequence line, String why) {
        return new IOException("edge list line " + why + ": '" + line + "'");
    }
}
