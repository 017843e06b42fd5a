/**
 * The inverse of every uncommitted write, undone newest first. A mark is a savepoint: rolling
 * back to it undoes only what was recorded after it (nested transactions).
 */
export class UndoJournal {
  readonly #undo: (() => void)[] = [];

  get size(): number {
    return this.#undo.length;
  }

  record(undo: () => void): void {
    this.#undo.push(undo);
  }

  mark(): number {
    return this.#undo.length;
  }

  rollbackTo(mark = 0): void {
    while (this.#undo.length > mark) this.#undo.pop()!();
  }
}
