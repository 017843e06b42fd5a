import type { SectionId } from './sections';
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

/** Shows a section, loading its first page the first time. */
export function showSection(state: State, section: SectionId): Step {
  const shown = { ...state, section, focus: 'list' as const };
  const list = state.lists[section];
  return list.status === 'idle' ? load(shown, section, firstPageParams(section, list.query), {}) : still(shown);
}

/** Runs a search in the current section ('' clears it). */
export const search = (state: State, query: string): Step =>
  load({ ...state, focus: 'list' }, state.section, firstPageParams(state.section, query), { query, selected: 0 });
