export { openJsonStore, type JsonStoreOptions, type JsonData } from './json-store';
export { DurableFileAdapter } from './durable-file-adapter';
