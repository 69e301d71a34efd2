/**
 * Checks of text fields that have a grammar of their own: iCal RRULEs (SQL tests and SQL-test
 * rules' `recurrenceRule`), IANA time zones (`timezone`), 5-field cron expressions (alert
 * `schedule.cron`). Shared by the constructs' synth-time validation and the engine's
 * `validate`/plan, so a bad value is caught offline, naming the field, not at the server.
 *
 * Each function answers why the text is bad, or undefined when it is fine.
 */

const RRULE_KEYS = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYSECOND', 'BYMINUTE', 'BYHOUR', 'BYDAY', 'BYMONTHDAY', 'BYYEARDAY', 'BYWEEKNO', 'BYMONTH', 'BYSETPOS', 'WKST']);
const FREQS = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** Integer lists (`BYHOUR=6,18`) and their allowed ranges (RFC 5545 3.3.10); negative where the RFC allows. */
const NUMBER_LISTS: Record<string, { min: number; max: number; negative?: boolean }> = {
  BYSECOND: { min: 0, max: 60 },
  BYMINUTE: { min: 0, max: 59 },
  BYHOUR: { min: 0, max: 23 },
  BYMONTHDAY: { min: 1, max: 31, negative: true },
  BYYEARDAY: { min: 1, max: 366, negative: true },
  BYWEEKNO: { min: 1, max: 53, negative: true },
  BYMONTH: { min: 1, max: 12 },
  BYSETPOS: { min: 1, max: 366, negative: true },
};

/** One `KEY=VALUE` part's problem. */
function rrulePartProblem(key: string, value: string): string | undefined {
  if (key === 'FREQ') return FREQS.includes(value) ? undefined : `FREQ=${value} is not one of ${FREQS.join(', ')}`;
  if (key === 'INTERVAL' || key === 'COUNT') return /^[1-9]\d*$/.test(value) ? undefined : `${key} must be a whole number of at least 1, got "${value}"`;
  if (key === 'UNTIL') return /^\d{8}(T\d{6}Z?)?$/.test(value) ? undefined : `UNTIL must be a date (20250131) or date-time (20250131T000000Z), got "${value}"`;
  if (key === 'WKST') return WEEKDAYS.includes(value) ? undefined : `WKST must be one of ${WEEKDAYS.join(', ')}, got "${value}"`;
  if (key === 'BYDAY') {
    for (const d of value.split(',')) {
      const m = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(d);
      if (!m || !WEEKDAYS.includes(m[2])) return `BYDAY "${d}" is not a weekday (${WEEKDAYS.join(', ')}, optionally with a number: 1MO, -1FR)`;
    }
    return undefined;
  }
  const range = NUMBER_LISTS[key];
  if (range) {
    for (const n of value.split(',')) {
      if (!/^[+-]?\d+$/.test(n)) return `${key} "${n}" is not a number`;
      const v = Number(n);
      const abs = Math.abs(v);
      if ((v < 0 && !range.negative) || abs < range.min || abs > range.max || (v === 0 && range.min > 0)) return `${key} ${n} is outside ${range.negative ? `${range.min}..${range.max} or -${range.max}..-${range.min}` : `${range.min}..${range.max}`}`;
    }
  }
  return undefined;
}

/**
 * Why an RRULE is bad, or undefined. Accepts `FREQ=...;...`, the same with an `RRULE:` prefix,
 * and the platform's form with an inline start: `DTSTART[;TZID=Zone]:20250101T060000[Z]` and
 * the `RRULE:` line after it (newline-separated).
 */
export function rruleProblem(rule: string): string | undefined {
  const lines = rule.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return 'it is empty (leave the field out to run on demand)';
  let body: string | undefined;
  for (const original of lines) {
    // RFC 5545: names and enumerated values are case-insensitive (time zone names are not)
    const line = original.toUpperCase();
    if (line.startsWith('DTSTART')) {
      if (!/^DTSTART(;TZID=[^:;]+)?:\d{8}(T\d{6}Z?)?$/.test(line)) return `"${original}" is not DTSTART[;TZID=Zone]:YYYYMMDDTHHMMSS`;
      const tz = /;TZID=([^:;]+)/i.exec(original)?.[1];
      const why = tz ? timezoneProblem(tz) : undefined;
      if (why) return `DTSTART: ${why}`;
      continue;
    }
    if (body !== undefined) return 'more than one RRULE line';
    body = line.replace(/^RRULE:/, '');
  }
  if (body === undefined) return 'DTSTART without an RRULE line';
  const keys: string[] = [];
  for (const p of body.split(';').filter((x) => x !== '')) {
    const m = /^([A-Z]+)=([^=;]+)$/.exec(p);
    if (!m) return `"${p}" is not KEY=VALUE`;
    if (!RRULE_KEYS.has(m[1])) return `unknown RRULE part ${m[1]}`;
    if (keys.includes(m[1])) return `${m[1]} given twice`;
    keys.push(m[1]);
    const why = rrulePartProblem(m[1], m[2]);
    if (why) return why;
  }
  if (!keys.includes('FREQ')) return 'FREQ is missing';
  if (keys.includes('COUNT') && keys.includes('UNTIL')) return 'COUNT and UNTIL cannot both be given';
  return undefined;
}

/** The start {@link ruleScheduleProblem}'s hint writes (fixed, so the output is deterministic). */
export const EXAMPLE_DTSTART = 'DTSTART:20260101T000000Z';

/**
 * Why a SQL-test deployment rule's `recurrenceRule` would be refused by the platform, beyond
 * {@link rruleProblem}, or undefined: "when set must contain an inline `DTSTART:`" (grpc-facts
 * `recurrence_rule`, wire-facts "SQL-test deployment rules"). The literal `DTSTART:` is required
 * (a `DTSTART;TZID=...:` line does not contain it: give the zone in `timezone`). `fixed` is the
 * value corrected: the rule's RRULE line after {@link EXAMPLE_DTSTART}.
 */
export function ruleScheduleProblem(rule: string): { why: string; fixed: string } | undefined {
  if (rule.includes('DTSTART:')) return undefined;
  const lines = rule.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  const body = lines.filter((l) => !/^DTSTART/i.test(l)).map((l) => l.replace(/^RRULE:/i, ''))[0] ?? 'FREQ=DAILY';
  const zoned = lines.some((l) => /^DTSTART;/i.test(l));
  return {
    why: zoned
      ? 'the platform needs the start written as an inline "DTSTART:" (a DTSTART;TZID=... line is not that form; give the zone in `timezone`)'
      : 'the platform refuses a SQL-test rule schedule without an inline "DTSTART:" start',
    fixed: `${EXAMPLE_DTSTART}\nRRULE:${body}`,
  };
}

/**
 * Why a time zone is not an IANA zone name, or undefined. Checked against the zone database Node
 * carries (`Intl`), which matches names case-insensitively: a name in another case is refused
 * with the canonical spelling. Offsets (`+02:00`) and abbreviations (`CEST`) are refused.
 */
export function timezoneProblem(tz: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return `"${tz}" is not an IANA time zone name (like Europe/Berlin or UTC)`;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return `"${tz}" is not a known IANA time zone (like Europe/Berlin, America/New_York or UTC)`;
  }
  if (canonical !== tz && canonical.toLowerCase() === tz.toLowerCase()) return `write "${canonical}" (time zone names are case-sensitive), not "${tz}"`;
  return undefined;
}

/** Why a 5-field cron expression is bad, or undefined. */
export function cronProblem(cron: string): string | undefined {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return `expected 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`;
  const ranges: [number, number][] = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];
  for (let i = 0; i < 5; i++) {
    for (const item of fields[i].split(',')) {
      const m = /^(\*|(\d+)(?:-(\d+))?|[A-Za-z]{3}(?:-[A-Za-z]{3})?)(?:\/(\d+))?$/.exec(item);
      if (!m) return `field ${i + 1} "${fields[i]}" is not a cron field`;
      for (const n of [m[2], m[3]]) {
        if (n !== undefined && (Number(n) < ranges[i][0] || Number(n) > ranges[i][1])) return `field ${i + 1}: ${n} is outside ${ranges[i][0]}-${ranges[i][1]}`;
      }
    }
  }
  return undefined;
}

/** A finding of {@link textFieldProblems}: the field path (`tests[0].recurrenceRule`) and what is wrong. */
export interface TextProblem {
  field: string;
  summary: string;
  hint: string;
}

/**
 * Every `recurrenceRule`, `timezone` and `cron` string in a desired config (at any depth) that
 * its grammar refuses. Strings holding an unresolved reference (`${...}`) are skipped. With
 * `ruleSchedule` (a SQL-test deployment rule), a `recurrenceRule` must also carry an inline
 * `DTSTART:` ({@link ruleScheduleProblem}).
 */
export function textFieldProblems(v: unknown, path = '', opts: { ruleSchedule?: boolean } = {}): TextProblem[] {
  const out: TextProblem[] = [];
  // where the walk is, as text only when a problem is found
  const at: (string | number)[] = [];
  const here = (k: string): string => {
    let p = path;
    for (const x of at) p = typeof x === 'number' ? `${p}[${x}]` : p ? `${p}.${x}` : x;
    return p ? `${p}.${k}` : k;
  };
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        at.push(i);
        walk(x[i]);
        at.pop();
      }
      return;
    }
    if (!x || typeof x !== 'object') return;
    for (const k in x) {
      const y = (x as Record<string, unknown>)[k];
      if (typeof y === 'string') {
        if (!TEXT_KEYS.has(k) || y.includes('${')) continue;
        const found = textProblemOf(k, y, opts.ruleSchedule === true);
        if (found) out.push({ field: here(k), ...found });
      } else if (y && typeof y === 'object') {
        at.push(k);
        walk(y);
        at.pop();
      }
    }
  };
  walk(v);
  return out;
}

/** The keys {@link textProblem} checks (src/engine/resolve.ts reads them to skip {@link textFieldProblems} when none is there). */
export const TEXT_KEYS: ReadonlySet<string> = new Set(['recurrenceRule', 'timezone', 'cron']);

/**
 * True when {@link textFieldProblems} reports the string `value` under the key `key` (one of
 * {@link TEXT_KEYS}, no `${`, refused by its grammar): what src/engine/resolve.ts asks in its one
 * walk over a config, so that a config without a problem is not walked again (issue 27).
 */
export function textHasProblem(key: string, value: string, ruleSchedule: boolean): boolean {
  return TEXT_KEYS.has(key) && !value.includes('${') && textProblemOf(key, value, ruleSchedule) !== undefined;
}

/**
 * Memo of {@link textProblem} (a pure function of key and text; a manifest repeats the same
 * few schedules across thousands of resources). Bounded; cleared when full.
 */
const textMemo = new Map<string, Omit<TextProblem, 'field'> | null>();
function textProblemOf(key: string, value: string, ruleSchedule: boolean): Omit<TextProblem, 'field'> | undefined {
  const m = `${key}\u0000${ruleSchedule ? 'rule' : ''}\u0000${value}`;
  let r = textMemo.get(m);
  if (r === undefined) {
    r = textProblem(key, value, ruleSchedule) ?? null;
    if (textMemo.size >= 10_000) textMemo.clear();
    textMemo.set(m, r);
  }
  return r ?? undefined;
}

function textProblem(key: string, value: string, ruleSchedule: boolean): Omit<TextProblem, 'field'> | undefined {
  if (key === 'recurrenceRule') {
    const why = rruleProblem(value);
    if (why) return { summary: `bad RRULE ${JSON.stringify(value)}: ${why}`, hint: ruleSchedule ? `write an inline start and an RRULE, e.g. ${JSON.stringify(`${EXAMPLE_DTSTART}\nRRULE:FREQ=DAILY;BYHOUR=6`)} (leave it out to run on demand)` : 'write an iCal RRULE, e.g. "FREQ=DAILY;BYHOUR=6" (leave it out to run on demand)' };
    const dt = ruleSchedule ? ruleScheduleProblem(value) : undefined;
    return dt ? { summary: `RRULE ${JSON.stringify(value)} has no inline DTSTART: ${dt.why}`, hint: `write ${JSON.stringify(dt.fixed)} (any start date and time; leave it out to run on demand)` } : undefined;
  }
  if (key === 'timezone') {
    const why = timezoneProblem(value);
    return why ? { summary: `bad time zone: ${why}`, hint: 'use an IANA zone name, e.g. "Europe/Berlin" or "UTC"' } : undefined;
  }
  if (key === 'cron') {
    const why = cronProblem(value);
    return why ? { summary: `bad cron "${value}": ${why}`, hint: 'write 5 fields, e.g. "0 9 * * 1-5"' } : undefined;
  }
  return undefined;
}
