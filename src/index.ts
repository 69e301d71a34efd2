/** dqform's package root. */
import { deferZodLocales } from '../schemas/tools/zod-locales';

// zod's 64 locale modules load only if something reads z.locales (schemas/tools/zod-locales.ts)
deferZodLocales();

export * from '../constructs';
