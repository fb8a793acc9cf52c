export * from './defineOperation';
export * from './operations';
export * from './openapi';
export * from './params';
