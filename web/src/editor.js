// The YAML editor: CodeMirror 6 with YAML colours, line numbers, search, undo,
// and the loader's problems as lint markers on their lines.

import { EditorState } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import {
  syntaxHighlighting, defaultHighlightStyle, indentOnInput, bracketMatching, foldGutter, foldKeymap,
} from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { yaml } from "@codemirror/lang-yaml";

export function createEditor(parent, { onChange, onRun }) {
  let silent = false;
  const runKey = { key: "Mod-Enter", run: () => { onRun(); return true; }, preventDefault: true };
  const state = EditorState.create({
    doc: "",
    extensions: [
      lineNumbers(), highlightActiveLineGutter(), foldGutter(), lintGutter(), highlightSpecialChars(),
      history(), drawSelection(), indentOnInput(), bracketMatching(), highlightActiveLine(),
      highlightSelectionMatches(), syntaxHighlighting(defaultHighlightStyle, { fallback: true }), yaml(),
      EditorState.tabSize.of(2),
      keymap.of([runKey, indentWithTab, ...defaultKeymap, ...historyKeymap, ...searchKeymap, ...foldKeymap]),
      EditorView.updateListener.of((u) => { if (u.docChanged && !silent) onChange(); }),
      EditorView.contentAttributes.of({ "aria-label": "scenario YAML" }),
    ],
  });
  const view = new EditorView({ state, parent });

  return {
    view,
    getText: () => view.state.doc.toString(),
    // Replace the whole text; keepCursor keeps the cursor's line where it can (a reload from disk).
    setText(text, { keepCursor = false, notify = true } = {}) {
      const head = Math.min(view.state.selection.main.head, text.length);
      silent = !notify;
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: text },
        selection: keepCursor ? { anchor: head } : { anchor: 0 },
      });
      silent = false;
    },
    // problems: [{line, message}] from the server's check; each marks its whole line.
    setProblems(problems) {
      const doc = view.state.doc;
      const diags = [];
      for (const p of problems || []) {
        const n = Math.min(Math.max(1, p.line || 1), doc.lines);
        const line = doc.line(n);
        const start = line.from + (line.text.length - line.text.trimStart().length);
        diags.push({ from: start, to: Math.max(line.to, start), severity: "error", message: p.message,
          source: "sim validate" });
      }
      view.dispatch(setDiagnostics(view.state, diags));
    },
    focus: () => view.focus(),
  };
}
