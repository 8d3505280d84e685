export * from './floor.js';
