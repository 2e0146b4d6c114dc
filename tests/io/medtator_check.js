// Loads MAE/MedTator XML files with MedTator's own ann_parser.xml2ann (run under node).
const fs = require('fs'); const vm = require('vm');
const { DOMParser } = require('@xmldom/xmldom');
const [src, dtdPath, ...files] = process.argv.slice(2);
const probe = new DOMParser().parseFromString('<a><b/></a>', 'text/xml');
const E = Object.getPrototypeOf(probe.documentElement);
const D = Object.getPrototypeOf(probe);
const kids = function () { return Array.from(this.childNodes).filter(n => n.nodeType === 1); };
if (!('children' in probe.documentElement)) Object.defineProperty(E, 'children', { get: kids });
if (!('children' in probe)) Object.defineProperty(D, 'children', { get: kids });
if (!E.getAttributeNames) E.getAttributeNames = function () { return Array.from(this.attributes).map(a => a.name); };
// A YAML task needs js-yaml, which MedTator loads in the page as `jsyaml`.
let jsyaml = null; try { jsyaml = require('js-yaml'); } catch (e) { /* DTD tasks only */ }
const ctx = { DOMParser, jsyaml, console: { log() {}, error() {}, warn() {} }, require };
vm.createContext(ctx);
for (const f of ['dtd_parser.js', 'ann_parser.js']) vm.runInContext(fs.readFileSync(src + '/' + f, 'utf8') + `\nthis.${f.replace('.js','')} = ${f.replace('.js','')};`, ctx);
const dtd = ctx.dtd_parser.parse(fs.readFileSync(dtdPath, 'utf8'), dtdPath.endsWith('.dtd') ? 'dtd' : 'yaml');
const out = {};
for (const f of files) {
  try { const ann = ctx.ann_parser.xml2ann(fs.readFileSync(f, 'utf8'), dtd); out[f] = { ok: true, tags: ann.tags.length, text: ann.text.length, meta: Object.keys(ann.meta).length }; }
  catch (e) { out[f] = { ok: false, error: String(e.message || e) }; }
}
console.log(JSON.stringify(out));
