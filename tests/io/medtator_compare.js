// node medtator_compare.js SRC TASK orig1 ours1 [orig2 ours2 ...]: each pair as MedTator's own parser
// (ann_parser.xml2ann) reads it; prints, as JSON, every difference of text, <META> and tags
// (each attribute of each tag, by id). Run with NODE_PATH naming a node_modules that has
// @xmldom/xmldom and js-yaml.
const fs = require('fs'); const vm = require('vm');
const { DOMParser } = require('@xmldom/xmldom');
const [src, dtdPath, ...files] = process.argv.slice(2);
const probe = new DOMParser().parseFromString('<a><b/></a>', 'text/xml');
const E = Object.getPrototypeOf(probe.documentElement); const D = Object.getPrototypeOf(probe);
const kids = function () { return Array.from(this.childNodes).filter(n => n.nodeType === 1); };
if (!('children' in probe.documentElement)) Object.defineProperty(E, 'children', { get: kids });
if (!('children' in probe)) Object.defineProperty(D, 'children', { get: kids });
if (!E.getAttributeNames) E.getAttributeNames = function () { return Array.from(this.attributes).map(a => a.name); };
let jsyaml = require('js-yaml');
const ctx = { DOMParser, jsyaml, console: { log() {}, error() {}, warn() {} }, require };
vm.createContext(ctx);
for (const f of ['dtd_parser.js', 'ann_parser.js']) vm.runInContext(fs.readFileSync(src + '/' + f, 'utf8') + `\nthis.${f.replace('.js','')} = ${f.replace('.js','')};`, ctx);
const fmt = p => p.endsWith('.dtd') ? 'dtd' : (p.endsWith('.json') ? 'json' : 'yaml');
const dtd = ctx.dtd_parser.parse(fs.readFileSync(dtdPath, 'utf8'), fmt(dtdPath));
const out = [];
for (let i = 0; i < files.length; i += 2) {
  const [a, b] = [files[i], files[i+1]];
  let A, B;
  try { A = ctx.ann_parser.xml2ann(fs.readFileSync(a, 'utf8'), dtd); } catch (e) { out.push({file: a, orig_error: String(e.message||e)}); continue; }
  try { B = ctx.ann_parser.xml2ann(fs.readFileSync(b, 'utf8'), dtd); } catch (e) { out.push({file: a, ours_error: String(e.message||e)}); continue; }
  const diffs = [];
  if (A.text !== B.text) diffs.push('text differs');
  if (JSON.stringify(A.meta) !== JSON.stringify(B.meta)) diffs.push('meta ' + JSON.stringify(A.meta) + ' vs ' + JSON.stringify(B.meta));
  const key = t => t.id || JSON.stringify(t);
  const bm = new Map(B.tags.map(t => [key(t), t]));
  for (const t of A.tags) {
    const u = bm.get(key(t));
    if (!u) { diffs.push('missing ' + JSON.stringify(t)); continue; }
    bm.delete(key(t));
    for (const k of new Set([...Object.keys(t), ...Object.keys(u)])) if (t[k] !== u[k]) diffs.push(`${t.id}.${k}: ${JSON.stringify(t[k])} vs ${JSON.stringify(u[k])}`);
  }
  for (const [k, u] of bm) diffs.push('extra ' + JSON.stringify(u));
  if (A.tags.length !== B.tags.length) diffs.push(`count ${A.tags.length} vs ${B.tags.length}`);
  if (diffs.length) out.push({file: a, diffs});
}
console.log(JSON.stringify(out, null, 1));
