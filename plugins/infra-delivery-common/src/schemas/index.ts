export * from './errors';
export * from './pagination';
export * from './service';
