/**
 * The bench's `startup` figure (bench/startup.ts) replaces the tests that pinned which source
 * files a command loads: each command is held to a module and a time budget, and a measure
 * over either does not hold.
 */
import { STARTUP_BUDGET, startupTargets, type StartupMeasure } from '../../bench/startup';

const measure = (modules: number, wallMs: number, budget: { modules: number; ms: number }): StartupMeasure => ({ modules, packages: ['commander'], wallMs, runsMs: [wallMs], budget });

describe('the startup figure', () => {
  it('budgets --version and validate, --version below validate (the bundle\'s core only: no command, no zod)', () => {
    expect(Object.keys(STARTUP_BUDGET).sort()).toEqual(['validate', 'version']);
    expect(STARTUP_BUDGET.version.modules).toBeLessThan(STARTUP_BUDGET.validate.modules);
    expect(STARTUP_BUDGET.version.ms).toBeLessThanOrEqual(150);
    expect(STARTUP_BUDGET.validate.ms).toBeLessThanOrEqual(150);
  });

  it('a command over its module or time budget does not hold, within both it holds', () => {
    const rows = startupTargets({
      version: measure(40, 90, STARTUP_BUDGET.version),
      validate: measure(STARTUP_BUDGET.validate.modules, 400, STARTUP_BUDGET.validate),
    });
    expect(rows.map((r) => [r.target, r.holds])).toEqual([
      [`startup: dqform --version loads <= ${STARTUP_BUDGET.version.modules} modules`, false],
      ['startup: dqform --version <= 150 ms whole process', true],
      [`startup: dqform validate loads <= ${STARTUP_BUDGET.validate.modules} modules`, true],
      ['startup: dqform validate <= 150 ms whole process', false],
    ]);
    expect(rows[0].value).toBe('40 (commander)');
  });
});
