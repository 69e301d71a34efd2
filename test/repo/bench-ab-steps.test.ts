/**
 * bench/ab-steps.ts (the apply and synth A/B of issue 24): what it reads from `/usr/bin/time -v`
 * and the statistics it prints.
 */
import { interleaved, median, summaryLines, timeFigures } from '../../bench/ab-steps';

const TIME_V = `\tCommand being timed: "node bench/children/apply.js plan.json batched"
\tUser time (seconds): 0.71
\tSystem time (seconds): 0.09
\tPercent of CPU this job got: 74%
\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:01.08
\tMaximum resident set size (kbytes): 131584
\tExit status: 0
`;

describe('bench/ab-steps.ts', () => {
  test('CPU is user + sys and peak RSS is in MB, from /usr/bin/time -v', () => {
    expect(timeFigures(TIME_V)).toEqual({ cpuMs: 800, rssMb: 128.5 });
  });

  test('output without the figures is an error, not NaN', () => {
    expect(() => timeFigures('Command exited with non-zero status 1\n')).toThrow(/User time/);
    expect(() => timeFigures(TIME_V.replace(/Maximum resident.*\n/, ''))).toThrow(/Maximum resident set size/);
  });

  test('median: the middle value, or the mean of the two middle ones', () => {
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 30, 20])).toBe(25);
    expect(median([])).toBeNaN();
  });

  test('builds alternate their order run by run', () => {
    expect([0, 1, 2, 3].map((i) => interleaved(['a', 'b'], i).join(''))).toEqual(['ab', 'ba', 'ab', 'ba']);
  });

  test('the summary gives each build its medians, its runs and its largest RSS', () => {
    const runs = { A: [{ wallMs: 1000.4, cpuMs: 700, rssMb: 120 }, { wallMs: 1200, cpuMs: 800, rssMb: 130.26 }, { wallMs: 900, cpuMs: 750, rssMb: 125 }] };
    expect(summaryLines('apply', runs)).toEqual(['  median apply A: 1000 ms wall (1000 / 1200 / 900), 750 ms cpu (700 / 800 / 750), 130.3 MB max']);
  });
});
