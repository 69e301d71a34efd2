/**
 * "Did you mean X?": the one helper every layer uses to suggest a known name for a misspelled
 * one (unknown fields and flags, references, ResolverQL functions, enum values). Levenshtein
 * distance (a swap of neighbours counting as one edit), case-insensitive; a suggestion only within a small distance that grows with the
 * word (1 up to 4 characters, 2 up to 8, else 3), so a short word is not "corrected" into an
 * unrelated one; a name the word begins (three characters at least) is suggested too. Deterministic: the smallest distance wins, a tie goes to the first in `known`
 * (callers pass their names in a fixed order).
 */

/**
 * Edit distance between `a` and `b`, ignoring case: Levenshtein's insertions, deletions and
 * substitutions, plus a swap of two neighbours as one edit (`nmae` is 1 from `name`: the
 * commonest typo; the optimal-string-alignment variant).
 */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const m = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      m[i][j] = Math.min(m[i - 1][j] + 1, m[i][j - 1] + 1, m[i - 1][j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) m[i][j] = Math.min(m[i][j], m[i - 2][j - 2] + 1);
    }
  }
  return m[x.length][y.length];
}

/** The largest distance still suggested for a word of this length. */
export function maxSuggestDistance(word: string): number {
  return word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
}

/**
 * The known name closest to `word`, or undefined when none is close (or `word` is known itself).
 * `strip`: a prefix the known names share that a user may leave out (`SEVERITY_` of
 * `SEVERITY_ERROR`): each name is also compared without it, so `error` and `EROR` both find
 * `SEVERITY_ERROR`.
 */
export function closestName(word: string, known: readonly string[], opts: { strip?: string } = {}): string | undefined {
  const limit = maxSuggestDistance(word);
  let best: string | undefined;
  let bestD = limit + 1;
  for (const k of known) {
    if (k === word) return undefined;
    const short = opts.strip && k.startsWith(opts.strip) ? k.slice(opts.strip.length) : undefined;
    // a name cut short (`abc` for `abcdef`, three characters at least) counts as the limit
    const prefix = word.length >= 3 && k.toLowerCase().startsWith(word.toLowerCase()) ? limit : Infinity;
    const d = Math.min(editDistance(word, k), short === undefined ? Infinity : editDistance(word, short), prefix);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}

/** The longest prefix ending in `_` that every name shares (`SEVERITY_`), or undefined. */
export function sharedPrefix(names: readonly string[]): string | undefined {
  if (names.length < 2) return undefined;
  let p = names[0];
  for (const n of names) while (!n.startsWith(p)) p = p.slice(0, -1);
  const cut = p.lastIndexOf('_');
  return cut > 0 ? p.slice(0, cut + 1) : undefined;
}
