import '@testing-library/jest-dom';

// Component tests render whole MUI tables and dialogs; on a shared 2-core machine under load one
// test can take longer than Jest's 5 s default without anything being wrong.
jest.setTimeout(30_000);
