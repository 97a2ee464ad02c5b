// Spellpress companion: the rule helpers as calculators. Every rule is the server's
// (spellpress/core/games/<game>/helpers.py): this draws each helper's form from the inputs it declares, asks
// /api/rules/<game>/<helper> as the inputs change, and shows the answer. Text is only ever
// set with textContent, never as HTML.
"use strict";

window.SpellpressRules = (function () {
  const { h } = window.SpellpressTrackers;
  const WAIT_MS = 150; // typing a number or tapping a stepper twice asks once

  async function call(method, path, body) {
    const response = await fetch(path, {
      method, cache: "no-store",
      headers: { Accept: "application/json", ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    let data = null;
    try { data = await response.json(); } catch { /* not JSON */ }
    if (!response.ok) throw new Error((data && data.error) || `${response.status} ${response.statusText}`);
    return data;
  }

  // ---------------------------------------------------------------- one input each

  function labelled(field, id, control) {
    return h("div", { class: "field" },
      h("label", { class: "field-label", for: id }, field.label),
      control,
      field.hint ? h("p", { class: "hint" }, field.hint) : null);
  }

  function choiceInput(field, id, values, changed) {
    const select = h("select", { id, name: field.name });
    if (!field.required) select.append(h("option", { value: "" }, "—"));
    for (const option of field.options) {
      select.append(h("option", { value: option.value, selected: option.value === values[field.name] },
        option.sub ? `${option.label} (${option.sub})` : option.label));
    }
    select.addEventListener("change", () => { values[field.name] = select.value || null; changed(); });
    return labelled(field, id, select);
  }

  function numberInput(field, id, values, changed) {
    const input = h("input", {
      id, type: "number", inputmode: "numeric", step: 1, min: field.min, max: field.max,
      value: values[field.name] ?? "", placeholder: field.required ? null : "—",
    });
    const set = (n) => {
      values[field.name] = n;
      input.value = n ?? "";
      changed();
    };
    const clampStep = (sign) => {
      const now = values[field.name] ?? (sign > 0 ? (field.min ?? 0) - 1 : (field.min ?? 0) + 1);
      set(Math.min(field.max ?? Infinity, Math.max(field.min ?? -Infinity, now + sign)));
    };
    input.addEventListener("input", () => {
      const n = input.value === "" ? null : Number(input.value);
      values[field.name] = Number.isInteger(n) ? n : input.value === "" ? null : input.value;
      changed();
    });
    const row = h("div", { class: "calc-number" },
      h("button", { type: "button", class: "btn small", "aria-label": `${field.label} down`, onclick: () => clampStep(-1) }, "−"),
      input,
      h("button", { type: "button", class: "btn small", "aria-label": `${field.label} up`, onclick: () => clampStep(1) }, "+"));
    return labelled(field, id, row);
  }

  function flagInput(field, id, values, changed) {
    const box = h("input", { id, type: "checkbox", checked: Boolean(values[field.name]) });
    box.addEventListener("change", () => { values[field.name] = box.checked; changed(); });
    return h("div", { class: "field" },
      h("label", { class: "choice" }, box, h("span", {}, field.label)),
      field.hint ? h("p", { class: "hint" }, field.hint) : null);
  }

  // A hand of cards: each option with a count from 0 to `each`, never more than `most` in all.
  function manyInput(field, id, values, changed) {
    const chosen = values[field.name];
    const total = h("span", { class: "calc-total" });
    const rows = [];
    const redraw = () => {
      total.textContent = chosen.length ? `${chosen.length} chosen` : "none chosen";
      for (const r of rows) r();
    };
    const list = h("div", { class: "calc-many", role: "group", "aria-labelledby": id });
    for (const option of field.options) {
      const count = h("span", { class: "calc-count", "aria-live": "off" });
      const down = h("button", { type: "button", class: "btn small", "aria-label": `One ${option.label} fewer` }, "−");
      const up = h("button", { type: "button", class: "btn small", "aria-label": `One ${option.label} more` }, "+");
      const n = () => chosen.filter((v) => v === option.value).length;
      down.addEventListener("click", () => {
        const at = chosen.lastIndexOf(option.value);
        if (at >= 0) { chosen.splice(at, 1); redraw(); changed(); }
      });
      up.addEventListener("click", () => {
        if (n() < field.each && (field.most == null || chosen.length < field.most)) {
          chosen.push(option.value); redraw(); changed();
        }
      });
      const row = h("div", { class: "calc-row" },
        h("span", { class: "calc-name" }, h("b", {}, option.label), option.sub ? h("small", {}, option.sub) : null),
        down, count, up);
      rows.push(() => {
        const k = n();
        count.textContent = String(k);
        row.classList.toggle("on", k > 0);
        down.disabled = k === 0;
        up.disabled = k >= field.each || (field.most != null && chosen.length >= field.most);
      });
      list.append(row);
    }
    const clear = h("button", { type: "button", class: "btn small ghost", onclick: () => { chosen.length = 0; redraw(); changed(); } }, "Clear");
    redraw();
    return h("div", { class: "field" },
      h("div", { class: "t-row" }, h("span", { class: "field-label", id }, field.label), total, clear),
      list, field.hint ? h("p", { class: "hint" }, field.hint) : null);
  }

  // Many options (a deck's worth): a picker that adds one at a time, and the chosen ones in
  // the order they were added (a side's blockers stand in order), each with its own remove.
  const PICKER_FROM = 12;

  function pickerInput(field, id, values, changed) {
    const chosen = values[field.name];
    const byValue = new Map(field.options.map((option) => [option.value, option]));
    const add = h("select", { id, "aria-label": `Add to ${field.label}` });
    const list = h("ol", { class: "calc-picked", "aria-label": field.label });
    const total = h("span", { class: "calc-total" });
    const redraw = () => {
      total.textContent = chosen.length ? `${chosen.length} chosen` : "none chosen";
      const full = field.most != null && chosen.length >= field.most;
      add.replaceChildren(h("option", { value: "" }, full ? "Full" : "Add…"),
        ...field.options.map((option) => h("option", {
          value: option.value, disabled: full || chosen.filter((v) => v === option.value).length >= field.each,
        }, option.sub ? `${option.label} (${option.sub})` : option.label)));
      add.value = "";
      list.replaceChildren(...chosen.map((value, i) => {
        const option = byValue.get(value);
        return h("li", { class: "calc-row picked" },
          h("span", { class: "calc-name" }, h("b", {}, option.label), option.sub ? h("small", {}, option.sub) : null),
          h("button", { type: "button", class: "btn small", "aria-label": `Remove ${option.label}`,
            onclick: () => { chosen.splice(i, 1); redraw(); changed(); } }, "✕"));
      }));
    };
    add.addEventListener("change", () => {
      if (!add.value) return;
      chosen.push(add.value);
      redraw();
      changed();
    });
    const clear = h("button", { type: "button", class: "btn small ghost", onclick: () => { chosen.length = 0; redraw(); changed(); } }, "Clear");
    redraw();
    return h("div", { class: "field" },
      h("div", { class: "t-row" }, h("label", { class: "field-label", for: id }, field.label), total, clear),
      list, add, field.hint ? h("p", { class: "hint" }, field.hint) : null);
  }

  const INPUTS = {
    choice: choiceInput, number: numberInput, flag: flagInput,
    many: (field, ...rest) => (field.options.length > PICKER_FROM ? pickerInput : manyInput)(field, ...rest),
  };

  // ---------------------------------------------------------------- one calculator

  function startValues(helper) {
    const values = {};
    for (const field of helper.fields) {
      if (field.kind === "many") values[field.name] = [...(field.default || [])];
      else if (field.default !== null && field.default !== undefined) values[field.name] = field.default;
      else if (field.kind === "choice" && field.required) values[field.name] = field.options[0].value;
      else if (field.kind === "flag") values[field.name] = false;
      else values[field.name] = null;
    }
    return values;
  }

  function calculator(slug, helper, values) {
    const answer = h("div", { class: "calc-answer", role: "status", "aria-live": "polite" });
    let asked = 0;
    let timer = null;
    async function ask() {
      const mine = ++asked;
      const body = {};
      // A choice that may be none is sent as null ("none"); other empty inputs are left out.
      for (const field of helper.fields) {
        const value = values[field.name];
        if (value === null ? !field.required : value !== "") body[field.name] = value;
      }
      answer.classList.add("pending");
      try {
        const result = await call("POST", `/api/rules/${encodeURIComponent(slug)}/${encodeURIComponent(helper.id)}`, body);
        if (mine !== asked) return;
        answer.replaceChildren(h("p", { class: "calc-verdict" }, result.verdict),
          h("ul", { class: "calc-details" }, (result.details || []).map((line) => h("li", {}, line))));
        answer.classList.remove("refused");
      } catch (err) {
        if (mine !== asked) return;
        answer.replaceChildren(h("p", { class: "calc-verdict" }, err instanceof TypeError ? "No connection." : err.message));
        answer.classList.add("refused");
      } finally {
        if (mine === asked) answer.classList.remove("pending");
      }
    }
    const changed = () => { clearTimeout(timer); timer = setTimeout(ask, WAIT_MS); };
    // Fields of one group (seldom needed) sit together in a folded section; it opens by itself
    // when one of them already holds a value.
    const form = h("div", { class: "calc-form" });
    let section = null;
    for (const field of helper.fields) {
      const input = INPUTS[field.kind](field, `calc-${helper.id}-${field.name}`, values, changed);
      if (!field.group) { section = null; form.append(input); continue; }
      if (!section || section.dataset.group !== field.group) {
        section = h("details", { class: "calc-group", dataset: { group: field.group } }, h("summary", {}, field.group));
        form.append(section);
      }
      const value = values[field.name];
      if (value !== null && value !== undefined && !(Array.isArray(value) && !value.length)) section.open = true;
      section.append(input);
    }
    ask();
    return h("section", { class: "calc", "aria-label": helper.title },
      h("p", { class: "calc-question" }, helper.question), answer, form);
  }

  // ---------------------------------------------------------------- every helper of a game

  async function mount(root, slug) {
    if (root.dataset.mounted) return;
    root.dataset.mounted = "1";
    let helpers;
    try {
      helpers = (await call("GET", `/api/rules/${encodeURIComponent(slug)}`)).helpers;
    } catch (err) {
      delete root.dataset.mounted;
      root.replaceChildren(h("p", { class: "error" }, err instanceof TypeError ? "No connection." : err.message));
      return;
    }
    if (!helpers.length) {
      root.replaceChildren(h("p", { class: "hint" }, "This game has no rule helpers yet."));
      return;
    }
    const kept = {}; // each helper's inputs, kept while the players switch between them
    const body = h("div", {});
    const show = (helper) => {
      kept[helper.id] = kept[helper.id] || startValues(helper);
      body.replaceChildren(calculator(slug, helper, kept[helper.id]));
    };
    const tabs = h("div", { class: "segmented", role: "radiogroup", "aria-label": "Rule helpers" },
      helpers.map((helper, i) => {
        const input = h("input", { type: "radio", name: "rule-helper", value: helper.id, checked: i === 0 });
        input.addEventListener("change", () => show(helper));
        return h("label", {}, input, h("span", {}, helper.title));
      }));
    root.replaceChildren(...(helpers.length > 1 ? [tabs] : []), body);
    show(helpers[0]);
  }

  return { mount };
})();
