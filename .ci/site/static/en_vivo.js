/* The notebooks' widgets, live on the site (prepare.py puts a hidden <div class="en-vivo"> beside each picture):
 * a port of helpers/layernorm.py and helpers.sweep.explore that prints every digit as Python does (math.fsum,
 * format specs with round-half-even on the exact binary value, float()'s grammar). tests/site/test_live.py
 * compares it with Python. T (Python's Unicode tables) is written in by prepare.py. */
(() => {
  "use strict";
  const T = /*TABLAS*/null;
  // ---- numbers printed as Python prints them
  const neg = v => v < 0 || Object.is(v, -0);
  const special = v => (v !== v ? "nan" : v < 0 ? "-inf" : "inf");
  function exact(v) { // |v| = D / 10^s exactly
    const b = new DataView(new ArrayBuffer(8));
    b.setFloat64(0, v);
    const hi = b.getUint32(0), e = (hi >>> 20) & 0x7ff;
    let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(b.getUint32(4)), x = -1074;
    if (e) { m |= 1n << 52n; x = e - 1075; }
    return x >= 0 ? [m << BigInt(x), 0] : [m * 5n ** BigInt(-x), -x];
  }
  function round(D, s, k) { // D / 10^s * 10^k, rounded half to even
    if (k >= s) return D * 10n ** BigInt(k - s);
    const d = 10n ** BigInt(s - k), q = D / d, r = (D % d) * 2n;
    return r > d || (r === d && q % 2n) ? q + 1n : q;
  }
  function point(q, k) { // the BigInt q / 10^k as text with k decimals
    let t = q.toString();
    if (k <= 0) return t;
    t = t.padStart(k + 1, "0");
    return t.slice(0, -k) + "." + t.slice(-k);
  }
  function f(v, k) { // f"{v:.{k}f}"
    if (!isFinite(v)) return special(v);
    const [D, s] = exact(v);
    return (neg(v) ? "-" : "") + point(round(D, s, k), k);
  }
  function g(v, p = 6) { // f"{v:.{p}g}"
    if (!isFinite(v)) return special(v);
    const sign = neg(v) ? "-" : "";
    if (v === 0) return sign + "0";
    const [D, s] = exact(v);
    let X = D.toString().length - 1 - s, q = round(D, s, p - 1 - X);
    if (q.toString().length > p) q = round(D, s, p - 1 - ++X);
    const strip = t => (t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t);
    if (X >= -4 && X < p) return sign + strip(point(q, p - 1 - X));
    const d = q.toString();
    return sign + strip(d[0] + "." + d.slice(1)) + "e" + (X < 0 ? "-" : "+") + String(Math.abs(X)).padStart(2, "0");
  }
  const pct = v => f(v * 100, 0) + "%"; // f"{v:.0%}"
  const thousands = n => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  const fmt = (vs, k = 3) => "[" + vs.map(v => f(v, k)).join(", ") + "]";
  function fsum(xs) { // CPython's math.fsum (msum), step for step
    const p = [];
    for (let x of xs) {
      let i = 0;
      for (let j = 0; j < p.length; j++) {
        let y = p[j];
        if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
        const hi = x + y, lo = y - (hi - x);
        if (lo !== 0) p[i++] = lo;
        x = hi;
      }
      p.length = i;
      if (x !== 0) p.push(x);
    }
    let n = p.length, hi = 0, lo = 0;
    if (n > 0) {
      hi = p[--n];
      while (n > 0) {
        const x = hi, y = p[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo !== 0) break;
      }
      if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
        const y = lo * 2, x = hi + y;
        if (y === x - hi) hi = x;
      }
    }
    return hi;
  }
  // ---- helpers/layernorm.py
  class InvalidInput extends Error {}
  const inRanges = (cp, r) => { // r: [start, end, start, end, ...] sorted
    let lo = 0, hi = r.length / 2 - 1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (cp < r[2 * m]) hi = m - 1; else if (cp > r[2 * m + 1]) lo = m + 1; else return true;
    }
    return false;
  };
  const isSpace = ch => inRanges(ch.codePointAt(0), T.spaces);
  function digit(ch) { // the value of a Unicode decimal digit (category Nd), else -1
    const cp = ch.codePointAt(0);
    for (const z of T.zeros) if (cp >= z && cp <= z + 9) return cp - z;
    return -1;
  }
  function strip(s) {
    const a = [...s];
    let i = 0, j = a.length;
    while (i < j && isSpace(a[i])) i++;
    while (j > i && isSpace(a[j - 1])) j--;
    return a.slice(i, j).join("");
  }
  function pyFloat(s) { // float(s) of a stripped s, or null where Python raises ValueError
    const a = [...s].map(ch => { const d = digit(ch); return d >= 0 ? String(d) : ch.codePointAt(0) < 128 ? ch : "?"; })
      .join("");
    const w = /^([+-]?)(inf|infinity|nan)$/i.exec(a);
    if (w) return w[2].toLowerCase() === "nan" ? NaN : w[1] === "-" ? -Infinity : Infinity;
    if (!/^[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?$/.test(a)) return null;
    return Number(a.replace(/_/g, ""));
  }
  function refuseThousandsMark(s, i) {
    const a = [...s], m = a.map(ch => (/[0-9]/.test(ch) ? ch : digit(ch) >= 0 ? "D" : ch.length > 1 ? "?" : ch)).join("");
    const d = "[0-9D]";
    if (new RegExp(`^[+-]?[1-9]${d}{0,2}([.,])${d}{3}$`).test(m)) {
      const whole = a.slice(0, -4).join(""), mark = a[a.length - 4], last = a.slice(-3).join("");
      const decimals = last.replace(/0+$/, "");
      const plain = decimals !== last ? `${whole}${mark}${decimals || "0"}` : `${s}0`;
      throw new InvalidInput(`«${s}» (número ${i}) se puede leer de dos formas: ${whole} con decimales o ${whole}${last} ` +
        `con «${mark}» separando los miles. Si es ${whole}${last}, escribilo sin separador; si tiene decimales, ` +
        `escribilo ${plain}.`);
    }
    if (new RegExp(`^(?:[+-]?${d}{1,3}([.,])${d}{3}(\\1${d}{3})+([.,]${d}+)?|[+-]?${d}{1,3}([.,])${d}{3}(?!\\4)[.,]${d}+)$`)
      .test(m)) {
      throw new InvalidInput(`«${s}» (número ${i}) tiene separador de miles: escribilo sin él (por ejemplo 1000000 o ` +
        "1000,5), con punto o coma solo para los decimales.");
    }
  }
  function visible(text) {
    const hidden = [], shown = [];
    for (const ch of text) {
      const cp = ch.codePointAt(0);
      if (inRanges(cp, T.hidden)) {
        const code = "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
        hidden.push(T.names[cp] ? `${code} ${T.names[cp]}` : code);
        shown.push(`⟨${code}⟩`);
      } else shown.push(ch);
    }
    return [shown.join(""), [...new Set(hidden)]];
  }
  function checkValue(v, i, name = "") {
    const where = name ? `${name}: el número ${i}` : `El número ${i}`;
    if (!isFinite(v)) throw new InvalidInput(`${where} no es finito (${special(v)}): usá un número común.`);
    if (Math.abs(v) > 1e15) {
      throw new InvalidInput(`${where} es demasiado grande (${g(v, 3)}): usá valores entre −1e15 y 1e15, ` +
        "más allá sus cuadrados pierden precisión.");
    }
    if (v !== 0 && Math.abs(v) < 1e-15) {
      throw new InvalidInput(`${where} es demasiado chico (${g(v, 3)}): usá 0 o valores de al menos 1e-15 (en valor ` +
        "absoluto); más chicos, sus cuadrados pierden precisión o dan 0.");
    }
    return v;
  }
  function parseNumbers(texts) { // one text per number, as FourNumbers passes them
    return texts.map((text, k) => {
      const i = k + 1, s = strip(text);
      if (!s) throw new InvalidInput(`El número ${i} está vacío: escribí un número (por ejemplo 2 o 0,5).`);
      refuseThousandsMark(s, i);
      const v = pyFloat(s.replace(/,/g, "."));
      if (v === null) {
        const [shown, hidden] = visible(text);
        const why = hidden.length ? `tiene ${hidden.length === 1 ? "un carácter invisible" : "caracteres invisibles"} ` +
          `(${hidden.join(", ")}), quizás copiado de otra página: borrá el casillero y escribí el número de nuevo.`
          : "usá dígitos, con punto o coma para los decimales.";
        throw new InvalidInput(`«${shown}» (número ${i}) no es un número: ${why}`);
      }
      return checkValue(v, i);
    });
  }
  function layerNormSteps(x, gamma, beta, eps = 1e-5) {
    const n = x.length;
    gamma = gamma || x.map(() => 1);
    beta = beta || x.map(() => 0);
    const mean = fsum(x) / n, centered = x.map(v => v - mean), squared = centered.map(c => c * c);
    const v = fsum(squared) / n, denom = Math.sqrt(v + eps), normalized = centered.map(c => c / denom);
    const output = normalized.map((u, i) => gamma[i] * u + beta[i]);
    const constant = x.every(a => a === x[0]);
    const message = constant ? `Los ${n} números son iguales: σ = 0. Sin ε dividiríamos 0 entre 0; con ` +
      `ε = ${g(eps)}, x̂ = 0 / √ε = 0 en todos.` : "";
    return { x, mean, centered, squared, var: v, std: Math.sqrt(v), denom, normalized, gamma, beta, output, eps,
      constant, message };
  }
  function walkthrough(x, sub, gamma, beta, eps = 1e-5) {
    const total = x.map((a, i) => a + sub[i]), s = layerNormSteps(total, gamma, beta, eps);
    const step = (title, values, text, digits = 3) => ({ title, values, text, digits });
    return [
      step("1. Entrada x", x, "El vector del token que entra a la subcapa."),
      step("2. Salida de la subcapa F(x)", sub, "Lo que calculó la atención: una corrección, no un reemplazo."),
      step("3. Suma residual x + F(x)", total, "Sumamos número a número: " + x.map((a, i) =>
        `${f(a, 2)} ${sub[i] >= 0 ? "+" : "−"} ${f(Math.abs(sub[i]), 2)} = ${f(a + sub[i], 2)}`).join(", ") + "."),
      step("4. Media μ", [s.mean], `μ = (${total.map(v => f(v, 2)).join(" + ")}) / ${x.length} = ${f(s.mean, 4)}.`, 4),
      step("5. Centrado x − μ", s.centered, "Restamos la media: ahora el vector tiene media 0."),
      step("6. Dividido por σ", s.normalized, `σ = √(varianza + ε) = √(${f(s.var, 4)} + ${g(eps)}) = ${f(s.denom, 4)}. ` +
        (s.constant ? "Los números eran todos iguales: el desvío queda en 0, no en 1, y x̂ = 0 en todos."
          : "Ahora el desvío es 1.")),
      step("7. γ ⊙ x̂ + β", s.output, "Escalamos con γ = [" + s.gamma.map(v => g(v)).join(", ") +
        "] y corremos con β = [" + s.beta.map(v => g(v)).join(", ") + "]: la salida de LayerNorm."),
    ];
  }
  // what each widget writes in its result (helpers/widgets/layernorm.py)
  function fourNumbersText(texts) {
    let s;
    try { s = layerNormSteps(parseNumbers(texts)); } catch (e) {
      if (e instanceof InvalidInput) return { error: "⚠ " + e.message };
      throw e;
    }
    return { steps: s, lines: [`media μ = ${f(s.mean, 4)} · varianza σ² = ${f(s.var, 4)} · desvío σ = ${f(s.std, 3)}`,
      `normalizado x̂ = ${fmt(s.normalized)}`].concat(s.message ? [s.message] : []) };
  }
  // ---- helpers.sweep.explore
  const warmupText = w => (w === 0 ? "sin warmup" : `warmup ${w}`);
  function seedsText(seeds) {
    seeds = [...seeds].sort((a, b) => a - b);
    if (seeds.length > 2 && seeds.every((v, i) => v === seeds[0] + i)) return `semillas ${seeds[0]} a ${seeds.at(-1)}`;
    return (seeds.length === 1 ? "semilla " : "semillas ") + seeds.join(", ");
  }
  function explore(data, nLayers, norm, warmup, seed) {
    const runs = Object.values(data.slices).flat().filter(r => !r.independent_layers), have = new Map();
    for (const r of runs) {
      const k = `${r.n_layers}|${r.norm}|${r.warmup}`;
      if (!have.has(k)) have.set(k, new Set());
      have.get(k).add(r.seed);
    }
    const curves = [], missing = [];
    for (const n of norm === "ambas" ? ["post", "pre"] : [norm]) {
      const mine = runs.filter(r => r.n_layers === nLayers && r.norm === n && r.warmup === warmup &&
        (seed === "todas" || seed === r.seed)).sort((a, b) => a.seed - b.seed);
      for (const r of mine) {
        const k = r.acc.findIndex(a => a >= 0.6), escape = k < 0 ? null : r.steps[k];
        const where = escape !== null ? `sale en el paso ${escape}` : `no salió en ${thousands(r.steps.at(-1))} pasos`;
        curves.push({ norm: n, seed: r.seed, steps: r.steps, acc: r.acc, escape, at: k,
          sentence: `${n}-norm, semilla ${r.seed}: ${where} (acierto final ${pct(r.acc.at(-1))})` });
      }
      if (mine.length) continue;
      const asked = `${n}-norm con ${nLayers} capas y ${warmupText(warmup)}`, seeds = have.get(`${nLayers}|${n}|${warmup}`);
      if (seeds) {
        missing.push(`El barrido no tiene la semilla ${seed} de ${asked}: hay ${seedsText(seeds)}.`);
        continue;
      }
      const same = [...have].map(([k, s]) => [k.split("|"), s]).filter(([k]) => +k[0] === nLayers && k[1] === n)
        .sort((a, b) => a[0][2] - b[0][2]);
      const there = same.map(([k, s]) => `${warmupText(+k[2])} (${seedsText(s)})`).join("; ") || "nada";
      missing.push(`El barrido no corrió ${asked}. De ${n}-norm con ${nLayers} capas tiene: ${there}.`);
    }
    return { curves, missing, lines: curves.map(c => c.sentence).concat(missing) };
  }
  // ---- drawing (SVG, the notebook's colours: helpers/plots.py)
  const NS = "http://www.w3.org/2000/svg", INPUT = "#BBBBBB", OUTPUT = "#009E73";
  const NORM = { post: ["#D55E00", ""], pre: ["#0072B2", "6 4"] };
  function el(tag, attrs = {}, text, parent) {
    const e = /^(svg|rect|line|text|polyline|circle)$/.test(tag) ? document.createElementNS(NS, tag)
      : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function svg(w, h, label) { // drawn at the width it is shown at: its text keeps its size on a phone
    return el("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: "img", "aria-label": label,
      class: "en-vivo-grafico" });
  }
  const room = (box, most) => Math.max(260, Math.min(most, box.clientWidth - 26 || most));
  function bars(root, x0, y0, w, h, title, groups, lo, hi, labels) { // groups: [[values, colour, dx, width]]
    const top = y0 + 22, bottom = y0 + h - 22, y = v => top + (hi - v) / (hi - lo) * (bottom - top), step = (w - 40) / labels.length;
    el("text", { x: x0 + w / 2, y: y0 + 14, "text-anchor": "middle" }, title, root);
    for (const t of [lo, (lo + hi) / 2, hi]) el("text", { x: x0 + 30, y: y(t) + 4, "text-anchor": "end", class: "suave" }, g(t, 3), root);
    labels.forEach((l, i) => {
      el("text", { x: x0 + 40 + step * (i + 0.5), y: y0 + h - 6, "text-anchor": "middle" }, l, root);
      for (const [vs, col, dx, bw] of groups) {
        const v = Math.max(lo, Math.min(hi, vs[i])), a = y(Math.max(v, 0)), b = y(Math.min(v, 0));
        el("rect", { x: x0 + 40 + step * (i + 0.5 + dx - bw / 2), y: a, width: step * bw, height: Math.max(b - a, 0.5),
          fill: col, stroke: "#333", "stroke-width": 0.5 }, undefined, root);
      }
    });
    el("line", { x1: x0 + 36, x2: x0 + w, y1: y(0), y2: y(0), class: "eje" }, undefined, root);
  }
  // ---- the widgets
  const live = box => { box.hidden = false; const p = box.previousElementSibling; if (p) p.hidden = true; };
  function result(box) { return el("div", { class: "en-vivo-resultado", "aria-live": "polite" }, undefined, box); }
  function show(out, lines, error) {
    out.replaceChildren(...lines.map((l, i) => el("p", { class: error ? "ln-error" : i > 1 ? "ln-note" : "" }, l)));
  }
  function fourNumbers(box, { initial }) {
    el("p", { class: "en-vivo-titulo" }, undefined, box).innerHTML = "<b>Ingresá 4 números</b> (punto o coma para decimales)";
    const row = el("div", { class: "en-vivo-fila" }, undefined, box);
    const fields = initial.map((v, i) => {
      const id = `${box.id}-x${i}`, w = el("span", {}, undefined, row);
      el("label", { for: id }, `x${i} `, w);
      return el("input", { id, type: "text", inputmode: "decimal", autocomplete: "off", value: String(v) }, undefined, w);
    });
    const out = result(box), plot = el("div", {}, undefined, box);
    const update = () => {
      const r = fourNumbersText(fields.map(e => e.value));
      if (r.error) { plot.replaceChildren(); show(out, [r.error], true); return; }
      const s = r.steps, lo = Math.min(0, ...s.x), hi = Math.max(0, ...s.x), w = room(box, 640), two = w >= 560,
        pw = two ? w / 2 : w, names = s.x.map((_, i) => `x${i}`), pic = svg(w, two ? 220 : 440,
          `Barras antes y después: x = ${fmt(s.x)}, x̂ = ${fmt(s.normalized)}`);
      bars(pic, 0, 0, pw - 10, 220, "antes: x", [[s.x, INPUT, 0, 0.7]], lo === hi ? -1 : lo, lo === hi ? 1 : hi, names);
      bars(pic, two ? pw + 10 : 0, two ? 0 : 220, pw - 10, 220, "después: x̂ (media 0, desvío 1)",
        [[s.normalized, OUTPUT, 0, 0.7]], -2, 2, names);
      plot.replaceChildren(pic);
      show(out, r.lines);
    };
    fields.forEach(e => e.addEventListener("input", update));
    update();
  }
  function gammaBeta(box, { x }) {
    el("p", { class: "en-vivo-titulo" }, undefined, box).innerHTML = "<b>Mové γ y β</b>: γ escala cada número, β lo corre";
    const base = layerNormSteps(x), row = el("div", { class: "en-vivo-deslizadores" }, undefined, box);
    const slider = (name, i, lo, hi, v) => {
      const id = `${box.id}-${name}${i}`, wrap = el("div", {}, undefined, row);
      el("label", { for: id }, `${name === "g" ? "γ" : "β"}${i}`, wrap);
      const input = el("input", { id, type: "range", min: lo, max: hi, step: 0.1, value: v }, undefined, wrap);
      const o = el("output", { for: id }, f(v, 1), wrap);
      input.addEventListener("input", () => { o.textContent = f(+input.value, 1); update(); });
      return input;
    };
    const gs = x.map((_, i) => slider("g", i, -3, 3, 1)), bs = x.map((_, i) => slider("b", i, -2, 2, 0));
    const out = result(box), plot = el("div", {}, undefined, box);
    const update = () => {
      const s = layerNormSteps(base.x, gs.map(e => +e.value), bs.map(e => +e.value));
      const w = room(box, 600), pic = svg(w, 264, `Barras por dimensión: x̂ = ${fmt(s.normalized)} y ` +
        `γ ⊙ x̂ + β = ${fmt(s.output)}`);
      bars(pic, 0, 0, w, 240, "La salida de LayerNorm con tus γ y β",
        [[s.normalized, INPUT, -0.2, 0.4], [s.output, OUTPUT, 0.2, 0.4]], -7, 7, x.map((_, i) => `dim ${i}`));
      el("rect", { x: 60, y: 246, width: 12, height: 12, fill: INPUT }, undefined, pic);
      el("text", { x: 78, y: 256 }, "x̂ (normalizado)", pic);
      el("rect", { x: 220, y: 246, width: 12, height: 12, fill: OUTPUT }, undefined, pic);
      el("text", { x: 238, y: 256 }, "γ ⊙ x̂ + β", pic);
      plot.replaceChildren(pic);
      show(out, [`γ ⊙ x̂ + β = ${fmt(s.output)}`]);
    };
    update();
  }
  function stepByStep(box, { x, sublayer, gamma, beta }) {
    el("p", { class: "en-vivo-titulo" }, undefined, box).innerHTML =
      "<b>Residual + LayerNorm, paso a paso</b> (el vector de «perro» después de la atención)";
    const steps = walkthrough(x, sublayer, gamma, beta), row = el("div", { class: "en-vivo-fila" }, undefined, box);
    const next = el("button", { type: "button", class: "en-vivo-primario" }, "Siguiente paso", row);
    const reset = el("button", { type: "button" }, "Empezar de nuevo", row);
    const out = result(box);
    let shown = 1;
    const render = () => {
      const done = shown === steps.length;
      next.disabled = done;
      out.replaceChildren(el("p", { class: "ln-counter" }, `paso ${shown} de ${steps.length}${done ? " · listo" : ""}`),
        ...steps.slice(0, shown).map(s => {
          const d = el("div", { class: "ln-step" });
          d.innerHTML = "<b></b>: <code></code><br><small></small>";
          [d.children[0].textContent, d.children[1].textContent, d.children[3].textContent] =
            [s.title, fmt(s.values, s.digits), s.text];
          return d;
        }));
    };
    next.addEventListener("click", () => { shown = Math.min(shown + 1, steps.length); render(); if (next.disabled) reset.focus(); });
    reset.addEventListener("click", () => { shown = 1; render(); });
    render();
  }
  function sweepExplorer(box, a) {
    el("p", { class: "en-vivo-titulo" }, undefined, box).innerHTML =
      "<b>Explorá el barrido</b>: elegí y mirá cuándo sale cada corrida de la meseta";
    const choice = (legend, name, options, value) => {
      const fs = el("fieldset", { class: "en-vivo-fila" }, undefined, box);
      el("legend", {}, legend, fs);
      return options.map(([text, v]) => {
        const l = el("label", {}, undefined, fs), r = el("input", { type: "radio", name: `${box.id}-${name}` }, undefined, l);
        r.checked = v === value;
        r.dataset.v = JSON.stringify(v);
        l.append(" " + text);
        return r;
      });
    };
    const select = (label, options, value, parent) => {
      const id = `${box.id}-${label}`, w = el("span", {}, undefined, parent);
      el("label", { for: id }, label + " ", w);
      const s = el("select", { id }, undefined, w);
      for (const [text, v] of options) { const o = el("option", { value: JSON.stringify(v) }, text, s); o.selected = v === value; }
      return s;
    };
    const layers = choice("capas", "capas", [6, 12, 24].map(n => [String(n), n]), a.n_layers);
    const norms = choice("norma", "norma", [["post-norm", "post"], ["pre-norm", "pre"], ["las dos", "ambas"]], a.norm);
    const row = el("div", { class: "en-vivo-fila" }, undefined, box);
    const warm = select("warmup", [["sin warmup", 0], ...[50, 100, 200, 400].map(w => [`${w} pasos`, w])], a.warmup, row);
    const seed = select("semilla", [["todas", "todas"], ...[0, 1, 2, 3, 4].map(s => [String(s), s])], a.seed, row);
    const picture = box.previousElementSibling, out = result(box), plot = el("div", {}, undefined, box);
    box.hidden = false;
    box.after(picture); // until the data comes, the stored picture (of the same state) stands for the result
    picture.querySelector("figcaption")?.remove();
    let data = null, asked = null;
    const picked = rs => JSON.parse(rs.find(r => r.checked).dataset.v);
    const update = () => {
      if (!data) return;
      const n = picked(layers), w = JSON.parse(warm.value), sd = JSON.parse(seed.value), e = explore(data, n, picked(norms), w, sd);
      out.replaceChildren(...e.curves.map(c => el("p", {}, c.sentence)), ...e.missing.map(m => el("p", { class: "sweep-missing" }, m)));
      plot.replaceChildren();
      if (e.curves.length) plot.append(curves(e, room(box, 640), `${n} capas, ${warmupText(w)}, ${sd === "todas" ? "todas las semillas" : `semilla ${sd}`}`));
      picture.hidden = true;
    };
    const touch = () => {
      asked = asked || fetch(box.dataset.datos).then(r => r.json()).then(d => { data = d; update(); box.dataset.listo = "1"; });
    };
    for (const ev of ["pointerdown", "focusin", "keydown"]) box.addEventListener(ev, touch);
    box.addEventListener("change", update);
  }
  function curves(e, W, title) {
    const H = W < 480 ? 318 : 300, L = 48, R = W - 24, top = 24, B = 250, last = Math.max(...e.curves.map(c => c.steps.at(-1)));
    const X = s => L + s / last * (R - L), Y = a => B - a / 1.02 * (B - top);
    const pic = svg(W, H, `${title}: ` + e.curves.map(c => c.sentence).join("; "));
    el("text", { x: W / 2, y: 15, "text-anchor": "middle" }, title, pic);
    for (const t of [0, 0.2, 0.4, 0.6, 0.8, 1]) {
      el("line", { x1: L, x2: R, y1: Y(t), y2: Y(t), class: "rejilla" }, undefined, pic);
      el("text", { x: L - 4, y: Y(t) + 4, "text-anchor": "end", class: "suave" }, `${Math.round(t * 100)} %`, pic);
    }
    for (const s of [0, last / 2, last]) el("text", { x: X(s), y: B + 16, "text-anchor": "middle", class: "suave" }, thousands(s), pic);
    el("text", { x: (L + R) / 2, y: B + 32, "text-anchor": "middle" }, "paso de entrenamiento", pic);
    el("line", { x1: L, x2: R, y1: Y(0.6), y2: Y(0.6), class: "eje", "stroke-dasharray": "2 3" }, undefined, pic);
    el("line", { x1: L, x2: R, y1: Y(0.9 ** 9), y2: Y(0.9 ** 9), stroke: "#888", "stroke-dasharray": "6 3" }, undefined, pic);
    for (const c of e.curves) {
      const [col, dash] = NORM[c.norm];
      el("polyline", { points: c.steps.map((s, i) => `${X(s).toFixed(1)},${Y(c.acc[i]).toFixed(1)}`).join(" "), fill: "none",
        stroke: col, "stroke-width": 1.6, "stroke-dasharray": dash, opacity: 0.85 }, undefined, pic);
      const k = c.escape === null ? c.steps.length - 1 : c.at, at = [X(c.steps[k]), Y(c.acc[k])], open = c.escape === null;
      const mark = { fill: open ? "#fff" : col, stroke: col, "stroke-width": 1.5 };
      el(c.norm === "post" ? "circle" : "rect", c.norm === "post" ? { cx: at[0], cy: at[1], r: 4, ...mark }
        : { x: at[0] - 4, y: at[1] - 4, width: 8, height: 8, ...mark }, undefined, pic);
    }
    const legend = [["umbral: 60 %", "eje", "2 3"], [`siempre «0»: ${f(0.9 ** 9 * 100, 1)} %`, "", "6 3"]];
    legend.forEach(([t, cls, d], i) => {
      const x = W < 480 ? L : L + 200 * i, y = W < 480 ? H - 26 + 18 * i : H - 8;
      el("line", { x1: x, x2: x + 24, y1: y, y2: y, class: cls, stroke: "#888", "stroke-dasharray": d }, undefined, pic);
      el("text", { x: x + 30, y: y + 4 }, t, pic);
    });
    return pic;
  }
  const WIDGETS = { FourNumbers: fourNumbers, GammaBeta: gammaBeta, StepByStep: stepByStep, SweepExplorer: sweepExplorer };
  window.enVivo = { f, g, pct, thousands, fsum, parseNumbers, layerNormSteps, walkthrough, fourNumbersText, explore,
    InvalidInput };
  const start = () => document.querySelectorAll(".en-vivo[data-widget]").forEach(box => {
    const make = WIDGETS[box.dataset.widget];
    make(box, JSON.parse(box.dataset.args));
    if (make !== sweepExplorer) live(box);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
