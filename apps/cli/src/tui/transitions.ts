import { sectionById, type SectionId } from './sections';
import { firstPageParams, type Effect, type ListState, type Params, type State, type Step } from './state';

/** Small state transitions the reducer and the overlay keys share. */

export const still = (state: State, ...effects: Effect[]): Step => ({ state, effects });

/** A message in the status line (an error unless said otherwise). */
export const say = (state: State, text: string, error = true): Step => still({ ...state, message: { text, error } });

export const withList = (state: State, section: SectionId, patch: Partial<ListState>): State => ({
  ...state,
  lists: { ...state.lists, [section]: { ...state.lists[section], ...patch } },
});

/** Starts loading a page of a section; answers to earlier loads of it will be dropped. */
export function load(state: State, section: SectionId, params: Params, patch: Partial<ListState>): Step {
  const request = state.nextRequest;
  const next = withList({ ...state, nextRequest: request + 1 }, section, { ...patch, status: 'loading', request, error: null });
  return still(next, { type: 'load', section, params, request });
}

/** Shows a section, loading its first page the first time; a search-only one without a search asks for one. */
export function showSection(state: State, section: SectionId): Step {
  const shown = { ...state, section, focus: 'list' as const };
  const list = state.lists[section];
  if (sectionById(section).searchOnly && !list.query) return still({ ...shown, overlay: { kind: 'prompt', purpose: 'search', text: '' } });
  return list.status === 'idle' ? load(shown, section, firstPageParams(section, list.query), {}) : still(shown);
}

/** Runs a search in the current section ('' clears it; a search-only section then shows nothing). */
export function search(state: State, query: string): Step {
  if (!query && sectionById(state.section).searchOnly) return still(withList({ ...state, focus: 'list' }, state.section, { status: 'idle', page: null, query: '', selected: 0 }));
  return load({ ...state, focus: 'list' }, state.section, firstPageParams(state.section, query), { query, selected: 0 });
}
