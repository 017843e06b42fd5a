import { Struct } from 'superstruct';
import { ApiError } from '../engine/errors';
import { readParams, type AnyStruct } from '../engine/params';

/**
 * Params for the operations SPEC.md answers bad input with 403/2204 rather than 400 (text
 * tracks). `shape` goes in the operation table: it documents the fields (reference, walk test)
 * and lets any object through the engine; the handler validates with `read`.
 */
export function forbiddenOnInvalid<T>(struct: Struct<T, Record<string, AnyStruct>>) {
  return {
    shape: new Struct<Record<string, unknown>, Record<string, AnyStruct>>({ type: 'object', schema: struct.schema }),
    read(input: unknown): T {
      try {
        return readParams(struct, input);
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 400) throw e;
        throw new ApiError(403, e.code, e.error, e.developerMessage, e.invalidParameters);
      }
    },
  };
}
