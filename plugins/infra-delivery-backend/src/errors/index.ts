export * from './InfraDeliveryError';
export * from './validationError';
export * from './backstageErrors';
export * from './databaseUnavailable';
