/** The one source of truth for wire and manifest shapes. Types are `z.infer`ed from these. */
export * from './common';
export * from './entities';
export * from './alerts';
export * from './deployment-rules';
export * from './sql-tests';
export * from './governance';
export * from './integrations';
export * from './manifest';
