import { editText, formChanges, formKey, type EditForm } from './form';
import { idOf, nameOf } from './format';
import { selectedVideo, type Keypress, type State, type Step } from './state';
import { search, still } from './transitions';

/** Keys while an overlay is open (help, a prompt, the edit form, a pick list, a confirmation). */
export function overlayKey(state: State, key: Keypress): Step {
  const { overlay } = state;
  if (!overlay) return still(state);
  const close = (message: State['message'] = state.message): Step => still({ ...state, overlay: null, message });
  switch (overlay.kind) {
    case 'help':
      return close();
    case 'edit': {
      if (overlay.form.saving) return still(state);
      const result = formKey(overlay.form, key);
      if (result.cancel) return close();
      if (result.submit) return submitForm(state, result.form);
      return still({ ...state, overlay: { kind: 'edit', form: result.form } });
    }
    case 'confirm': {
      if (key.text.toLowerCase() !== 'y' || key.ctrl) return close({ text: `Kept “${overlay.name}”.`, error: false });
      return still({ ...state, overlay: null, busy: 'Deleting…', message: null }, { type: 'delete', videoId: overlay.videoId, name: overlay.name });
    }
    case 'prompt': {
      if (key.name === 'escape') return close();
      if (key.name === 'return') {
        const text = overlay.text.trim();
        if (overlay.purpose === 'search') return search({ ...state, overlay: null, message: null }, text);
        const video = selectedVideo(state);
        if (!text || !video) return close();
        if (state.busy) return close({ text: `Wait: ${state.busy}`, error: true });
        return still({ ...state, overlay: null, busy: 'Tagging…' }, { type: 'tag', videoId: idOf(video), name: nameOf(video), word: text, on: true });
      }
      const text = editText(overlay.text, key);
      return text === undefined ? still(state) : still({ ...state, overlay: { ...overlay, text } });
    }
    case 'pick': {
      if (key.name === 'escape' || key.text === 'q') return close();
      if (overlay.status === 'loading') return still(state);
      const last = overlay.choices.length - 1;
      const k = key.name ?? key.text;
      if (k === 'up' || k === 'k') return still({ ...state, overlay: { ...overlay, selected: Math.max(0, overlay.selected - 1) } });
      if (k === 'down' || k === 'j') return still({ ...state, overlay: { ...overlay, selected: Math.min(last, overlay.selected + 1) } });
      if (k !== 'return') return still(state);
      const choice = overlay.choices[overlay.selected];
      const video = selectedVideo(state);
      if (!choice || !video) return close();
      if (state.busy) return close({ text: `Wait: ${state.busy}`, error: true });
      const [videoId, name] = [idOf(video), nameOf(video)];
      const done = { ...state, overlay: null, message: null };
      if (overlay.purpose === 'untag') return still({ ...done, busy: 'Removing tag…' }, { type: 'tag', videoId, name, word: choice.id, on: false });
      return still({ ...done, busy: `Adding to ${overlay.purpose}…` }, { type: 'addTo', purpose: overlay.purpose, videoId, name, target: choice });
    }
  }
}

/** Submits the edit form: the changed fields go to `videos.update`. */
function submitForm(state: State, form: EditForm): Step {
  const changes = formChanges(form);
  if (!changes) return still({ ...state, overlay: null, message: { text: 'Nothing changed.', error: false } });
  if (state.busy) return still({ ...state, message: { text: `Wait: ${state.busy}`, error: true } });
  return still({ ...state, busy: 'Saving…', overlay: { kind: 'edit', form: { ...form, saving: true, error: null } } }, { type: 'update', videoId: form.videoId, changes });
}
