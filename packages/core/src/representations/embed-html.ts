/** An attribute value of the embed code: `&`, `<`, `>` and `"` as character references. */
const attribute = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The embed code of a player at `src` (a Clip's `embed.html`, an oEmbed answer's `html`). */
export const iframeHtml = (src: string, width: number, height: number, title: string): string =>
  `<iframe src="${attribute(src)}" width="${width}" height="${height}" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="${attribute(title)}"></iframe>`;
