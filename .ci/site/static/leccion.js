/* The lesson's site: two fixes to the theme and one to wide content (make site copies this file into _static/,
 * where Jupyter Book 1.x loads it on every page). */
(function () {
  "use strict";

  /* 1. The ☰ and ☷ buttons that readers see (sphinx-book-theme's, in the article header) open nothing below
   * ~960 px: pydata-sphinx-theme 0.17.1 binds its dialog to document.querySelector(".primary-toggle"), the
   * first such button, its own hidden header button (pydata/pydata-sphinx-theme#2451;
   * executablebooks/sphinx-book-theme#988). Every other toggle forwards its click to that first one, so the
   * theme's own code (dialog on a phone, collapse on a wide screen) does the rest. */
  function forwardToggles() {
    [".primary-toggle", ".secondary-toggle"].forEach(function (selector) {
      var all = document.querySelectorAll(selector);
      for (var i = 1; i < all.length; i++) {
        all[i].addEventListener("click", function (event) {
          event.preventDefault();
          event.stopPropagation();
          all[0].click();
        });
      }
    });
  }

  /* 2. Anything wider than its column (a formula, a code line, a table, an output) scrolls inside its own box,
   * which then is a keyboard stop with a name, in a frame that shades the side where there is more (a shade
   * over the content, so a table's cell backgrounds do not hide it). */
  var WIDE = [
    "main mjx-container[display='true']",   // display math
    "main mjx-container:not([display])",     // inline math wider than the column
    "main pre",
    "main .cell_output .output",
    "main .pst-scrollable-table-container",
  ].join(", ");

  function frame(el) {
    var f = el.parentElement;
    if (!f.classList.contains("leccion-marco")) {
      f = document.createElement(el.tagName === "MJX-CONTAINER" && !el.hasAttribute("display") ? "span" : "div");
      f.className = "leccion-marco";
      el.parentNode.insertBefore(f, el);
      f.appendChild(el);
    }
    return f;
  }

  function markScrollables() {
    document.querySelectorAll(WIDE).forEach(function (el) {
      var inline = el.tagName === "MJX-CONTAINER" && !el.hasAttribute("display");
      if (inline && !el.classList.contains("leccion-bloque")) {
        // MathJax's inline math never breaks: one that runs past its column's edge becomes a box of its own
        // (it moves to the next line whole, and scrolls if it is still too wide). Only those: every glyph
        // overhangs its box by a pixel or two, and a box would show a scroll bar for it.
        var column = el.closest("p, li, td, dd, div");
        if (!column || el.getBoundingClientRect().right <= column.getBoundingClientRect().right + 1) return;
        el.classList.add("leccion-bloque");
      }
      var wide = el.scrollWidth > el.clientWidth + 2;
      el.classList.toggle("desplaza", wide);
      if (wide) {
        el.tabIndex = 0;
        if (!el.hasAttribute("role")) el.setAttribute("role", "group");
        if (!el.hasAttribute("aria-label")) {
          var what = el.tagName === "PRE" ? "Código" : el.tagName === "MJX-CONTAINER" ? "Fórmula" :
                     el.classList.contains("pst-scrollable-table-container") ? "Tabla" : "Salida";
          el.setAttribute("aria-label", what + " más ancha que la página: se desplaza a los costados");
          el.dataset.leccionLabel = "1";
        }
        updateShadows(el);
      } else {
        if (el.dataset.leccionLabel) {
          el.removeAttribute("aria-label");
          el.removeAttribute("role");
          delete el.dataset.leccionLabel;
        }
        if (el.tagName === "MJX-CONTAINER") el.removeAttribute("tabindex");
        if (el.parentElement.classList.contains("leccion-marco")) {
          el.parentElement.classList.remove("hay-mas-izquierda", "hay-mas-derecha");
        }
      }
    });
  }

  function updateShadows(el) {
    var f = frame(el);
    f.classList.toggle("hay-mas-izquierda", el.scrollLeft > 1);
    f.classList.toggle("hay-mas-derecha", el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
  }

  document.addEventListener("scroll", function (event) {
    if (event.target.classList && event.target.classList.contains("desplaza")) updateShadows(event.target);
  }, true);

  var pending = null;
  function later() {
    clearTimeout(pending);
    pending = setTimeout(markScrollables, 150);
  }

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    forwardToggles();
    markScrollables();
    window.addEventListener("resize", later);
    // after MathJax has typeset (its output is what may be too wide)
    var tries = 0;
    (function whenMath() {
      if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
        MathJax.startup.promise.then(function () {
          markScrollables();
          document.documentElement.dataset.leccionListo = "1";
        });
      } else if (document.querySelector("script[src*='mathjax']") && tries++ < 100) {
        setTimeout(whenMath, 50);
      } else {
        document.documentElement.dataset.leccionListo = "1";
      }
    })();
  });
})();
