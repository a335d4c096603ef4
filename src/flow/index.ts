export * from './build-context.ts';
export type * from './flow-types.ts';
export * from './transition.ts';
