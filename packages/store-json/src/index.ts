export { openJsonStore, type JsonStoreOptions, type JsonData } from './json-store';
export { DurableFileAdapter } from './durable-file-adapter';
export { jsonStoreCeilingBytes } from './ceiling';
export { copyJsonStore } from './backup';
