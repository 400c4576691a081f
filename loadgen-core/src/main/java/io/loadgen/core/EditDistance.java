package io.loadgen.core;

import java.util.Collection;
import java.util.Optional;

/**
 * Edit distance for "did you mean" hints: letters added, dropped or changed, and two neighbours
 * swapped, each count 1 (optimal string alignment). Stateless; any thread; not for the hot path.
 */
public final class EditDistance {
    /** How far a typo may be from the word meant: two edits ({@code mockbd}, {@code rnu}, {@code readproprtion}). */
    public static final int TYPO = 2;

    private EditDistance() {
    }

    /**
     * The candidate nearest to {@code word} when it is at most {@code maxDistance} edits away (the first of
     * equals, in the candidates' order), for "did you mean" hints; empty when none is that near.
     */
    public static Optional<String> closest(String word, Collection<String> candidates, int maxDistance) {
        String best = null;
        int bestDistance = maxDistance + 1;
        for (String c : candidates) {
            if (Math.abs(word.length() - c.length()) > maxDistance) {
                continue; // too far apart to be a typo, and a 5 MB word costs no quadratic table
            }
            int d = between(word, c);
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        return Optional.ofNullable(best);
    }

    static int between(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
