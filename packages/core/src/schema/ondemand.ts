import type { Schema } from '../store/schema-types';

export const ondemandCollections: Schema = {};
