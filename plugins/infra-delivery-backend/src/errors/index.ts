export * from './InfraDeliveryError';
export * from './validationError';
export * from './backstageErrors';
