export * from './errors';
export * from './pagination';
export * from './primitives';
export * from './service';
export * from './identity';
export * from './projects';
export * from './defaultValues';
