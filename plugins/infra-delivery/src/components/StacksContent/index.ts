export { StacksContent } from './StacksContent';
