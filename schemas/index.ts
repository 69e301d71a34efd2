/** The one source of truth for wire and manifest shapes. Types are `z.infer`ed from these. */
export * from './common';
export * from './entities';
