type ApiCaller = { call: (m: string, p: string, o: { token?: string; json?: unknown }) => Promise<{ status: number; body: any; text: string }> };

/** Creates a video to be uploaded by tus, `size` bytes; answers its id and upload link (nothing sent yet). */
export async function createTusVideo(h: ApiCaller, token: string, size: number, json: Record<string, unknown> = {}): Promise<{ id: string; link: string }> {
  const r = await h.call('POST', '/me/videos', { token, json: { name: 'Uploaded', ...json, upload: { approach: 'tus', size } } });
  // A tus attempt answers 200, as the hosted API's SDKs require (issue 22); other approaches 201.
  if (r.status !== 200) throw new Error(`creating a video failed: ${r.status} ${r.text}`);
  return { id: String(r.body.uri).split('/').pop()!, link: r.body.upload.upload_link };
}

/** Sends `bytes` to a tus upload link in one PATCH, which finishes the upload. */
export async function sendByTus(link: string, bytes: Uint8Array): Promise<void> {
  const p = await fetch(link, {
    method: 'PATCH',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    body: bytes,
  });
  if (p.status !== 204) throw new Error(`tus PATCH failed: ${p.status} ${await p.text()}`);
}

/** Creates a video by tus and uploads `bytes` in one PATCH; answers the video id. */
export async function uploadByTus(h: ApiCaller, token: string, bytes: Uint8Array, json: Record<string, unknown> = {}): Promise<string> {
  const { id, link } = await createTusVideo(h, token, bytes.length, json);
  await sendByTus(link, bytes);
  return id;
}
