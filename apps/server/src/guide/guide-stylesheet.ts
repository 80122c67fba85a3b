/**
 * The guide's stylesheet (/guide/guide.css): a readable column of text, the screenshots at the column's width with a
 * thin frame, a bar with the guide's name, its contents, the other language and the way back to the desk. It belongs
 * to the server, not to the guide's folder, so that a guide elsewhere (GUIDE_DIR) looks the same.
 */
export const GUIDE_STYLESHEET = `:root {
  color-scheme: light;
  --text: #1f2328;
  --muted: #59636e;
  --line: #d1d9e0;
  --link: #0b6e4f;
  --bar: #f6f8fa;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  color: var(--text);
  background: #fff;
  font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--link); }
.guide-bar {
  position: sticky;
  top: 0;
  z-index: 1;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 4px 16px;
  /* Lined up with the text column below (880 px wide, 16 px inside). */
  padding: 10px max(16px, calc((100% - 880px) / 2 + 16px));
  background: var(--bar);
  border-bottom: 1px solid var(--line);
}
.guide-name { font-weight: 600; color: var(--text); text-decoration: none; }
.guide-bar nav { display: flex; flex-wrap: wrap; gap: 4px 16px; }
.guide-page { max-width: 880px; margin: 0 auto; padding: 8px 16px 64px; }
/* A section reached by its anchor shows below the bar (two lines on a phone). */
h1, h2, h3, h4 { line-height: 1.25; margin: 1.6em 0 0.6em; scroll-margin-top: 96px; }
.guide-page > h1:first-child { margin-top: 0.9em; }
h1 { font-size: 2em; padding-bottom: 0.3em; border-bottom: 1px solid var(--line); }
h2 { font-size: 1.5em; padding-bottom: 0.3em; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.25em; }
p, ul, ol, table, pre, blockquote { margin: 0 0 1em; }
li + li { margin-top: 0.25em; }
a.picture { display: block; margin: 1em 0 1.5em; }
img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; }
code { font: 0.875em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #eff2f5; padding: 0.15em 0.35em; border-radius: 4px; }
pre { overflow-x: auto; background: #eff2f5; padding: 12px 16px; border-radius: 6px; }
pre code { background: none; padding: 0; }
table { display: block; overflow-x: auto; border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: 6px 12px; text-align: left; vertical-align: top; }
th { background: var(--bar); }
blockquote { margin-left: 0; padding: 0 1em; color: var(--muted); border-left: 4px solid var(--line); }
hr { border: 0; border-top: 1px solid var(--line); margin: 2em 0; }
@media (max-width: 600px) {
  body { font-size: 15px; }
  h1 { font-size: 1.6em; }
  h2 { font-size: 1.3em; }
}
`;
