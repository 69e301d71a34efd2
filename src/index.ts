/** dqform's package root. */
import { deferZodLocales } from '../schemas/zod-locales';

// zod's 64 locale modules load only if something reads z.locales (schemas/zod-locales.ts)
deferZodLocales();

export * from '../constructs';
