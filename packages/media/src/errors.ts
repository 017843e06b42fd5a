/**
 * Input an API user sent that cannot be used. Core recognises it by `code` (the package may be
 * bundled twice, so not by class) and shows `message` to the user, so it is a whole sentence.
 */
export class MediaInputError extends Error {
  readonly code = 'EMEDIAINPUT';
  override readonly name = 'MediaInputError';
}
