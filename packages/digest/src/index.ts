export * from './flags-digest.ts';
