import { privacyViews } from '@reelbase/core';
import { pick } from '../render/table';
import { idOf } from './format';
import type { Item, Keypress } from './state';

export type PrivacyView = (typeof privacyViews)[number];
export type EditField = 'name' | 'description' | 'view' | 'password';

export interface EditValues {
  name: string;
  description: string;
  view: PrivacyView;
  /** Only sent when the view is `password` and something was typed. */
  password: string;
}

/** The inline edit form of a video: name, description, privacy.view (and a password for `password`). */
export interface EditForm {
  videoId: string;
  original: EditValues;
  values: EditValues;
  focus: EditField;
  error: string | null;
  saving: boolean;
}

/** The body of `videos.update`: only what changed. */
export interface VideoChanges {
  name?: string;
  description?: string;
  privacy?: { view: PrivacyView };
  password?: string;
}

export const fieldLabels: Record<EditField, string> = { name: 'Name', description: 'Description', view: 'Privacy', password: 'Password' };

const isView = (v: unknown): v is PrivacyView => (privacyViews as readonly unknown[]).includes(v);

export function openForm(video: Item): EditForm {
  const view = pick(video, 'privacy.view');
  const values: EditValues = {
    name: String(pick(video, 'name') ?? ''),
    description: String(pick(video, 'description') ?? ''),
    view: isView(view) ? view : 'anybody',
    password: '',
  };
  return { videoId: idOf(video), original: values, values, focus: 'name', error: null, saving: false };
}

/** The fields on screen, in order: the password only for a password-protected view. */
export const formFields = (form: EditForm): EditField[] =>
  form.values.view === 'password' ? ['name', 'description', 'view', 'password'] : ['name', 'description', 'view'];

/** A text field after a key, or undefined when the key does not edit text (cursor at the end). */
export function editText(text: string, key: Keypress): string | undefined {
  if (key.name === 'backspace') return [...text].slice(0, -1).join('');
  if (key.name || key.ctrl || !key.text) return undefined;
  return text + key.text.replace(/[\r\n\t]+/g, ' ');
}

/** What a key does to the form: a new form, or a request to submit or cancel. */
export function formKey(form: EditForm, key: Keypress): { form: EditForm; submit?: true; cancel?: true } {
  if (key.name === 'escape') return { form, cancel: true };
  if (key.name === 'return') return { form, submit: true };
  const fields = formFields(form);
  const at = fields.indexOf(form.focus);
  const back = (key.name === 'tab' && key.shift) || key.name === 'up';
  if (key.name === 'tab' || key.name === 'down' || key.name === 'up') {
    return { form: { ...form, focus: fields[(at + (back ? fields.length - 1 : 1)) % fields.length] } };
  }
  if (form.focus === 'view') {
    const step = key.name === 'left' ? -1 : key.name === 'right' || key.text === ' ' ? 1 : 0;
    if (!step) return { form };
    const view = privacyViews[(privacyViews.indexOf(form.values.view) + step + privacyViews.length) % privacyViews.length];
    return { form: { ...form, values: { ...form.values, view }, error: null } };
  }
  const text = editText(form.values[form.focus], key);
  return text === undefined ? { form } : { form: { ...form, values: { ...form.values, [form.focus]: text }, error: null } };
}

/** The changes to send, or null when nothing changed. */
export function formChanges(form: EditForm): VideoChanges | null {
  const { values, original } = form;
  const changes: VideoChanges = {};
  if (values.name !== original.name) changes.name = values.name;
  if (values.description !== original.description) changes.description = values.description;
  if (values.view !== original.view) changes.privacy = { view: values.view };
  if (values.view === 'password' && values.password) changes.password = values.password;
  return Object.keys(changes).length ? changes : null;
}
