package org.teraheap.spark;

/**
 * The options after {@code -javaagent:teraheap-spark.jar=}, comma separated: H2's budget for
 * cached blocks, and when a block is taken into it.
 */
final class AgentOptions {
    /** Bytes of cached blocks H2 may hold. */
    final long budgetBytes;
    /** Blocks are taken into H2 when Spark would evict them, rather than as soon as stored. */
    final boolean adoptAtEviction;

    private AgentOptions(long budgetBytes, boolean adoptAtEviction) {
        this.budgetBytes = budgetBytes;
        this.adoptAtEviction = adoptAtEviction;
    }

    /**
     * {@code budget=<fraction of H2>} (default 1) or {@code budgetBytes=<bytes>}, and
     * {@code adopt=stored} (default) or {@code adopt=evicted}; an IllegalArgumentException names
     * a bad one.
     */
    static AgentOptions parse(String options, long capacity) {
        double fraction = 1.0;
        long bytes = -1;
        boolean atEviction = false;
        if (options != null && !options.isEmpty()) {
            for (String option : options.split(",")) {
                String[] kv = option.split("=", 2);
                try {
                    if (kv.length == 2 && kv[0].equals("budget")) {
                        fraction = Double.parseDouble(kv[1]);
                        if (fraction > 0 && fraction <= 1) {
                            continue;
                        }
                    } else if (kv.length == 2 && kv[0].equals("budgetBytes")) {
                        bytes = Long.parseLong(kv[1]);
                        if (bytes >= 0) {
                            continue;
                        }
                    } else if (kv.length == 2 && kv[0].equals("adopt")
                            && (kv[1].equals("stored") || kv[1].equals("evicted"))) {
                        atEviction = kv[1].equals("evicted");
                        continue;
                    }
                } catch (NumberFormatException e) {
                    // falls through to the error below
                }
                throw new IllegalArgumentException("teraheap-spark: bad agent option '" + option
                    + "'; use budget=<fraction of H2, above 0, at most 1>, budgetBytes=<bytes>"
                    + " or adopt=stored|evicted");
            }
        }
        long budget = bytes >= 0 ? Math.min(bytes, capacity) : (long) (capacity * fraction);
        return new AgentOptions(budget, atEviction);
    }
}
