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
   * which then is a keyboard stop with a name and shows a shadow on the side where there is more. */
  var WIDE = [
    "article mjx-container[display='true']",   // display math
    "article mjx-container:not([display])",     // inline math wider than the column
    "article div.math",
    "article pre",
    "article .cell_output .output",
    "article .pst-scrollable-table-container",
    "article .widget-picture",
  ].join(", ");

  function markScrollables() {
    document.querySelectorAll(WIDE).forEach(function (el) {
      var wide = el.scrollWidth > el.clientWidth + 1;
      if (el.tagName === "MJX-CONTAINER" && !el.hasAttribute("display")) {
        // inline math: only a box of its own when it does not fit
        if (!wide && !el.classList.contains("desplaza")) {
          var column = el.closest("p, li, td, dd, div");
          wide = column && el.getBoundingClientRect().width > column.clientWidth;
        }
      }
      el.classList.toggle("desplaza", wide);
      if (wide) {
        el.tabIndex = 0;
        if (!el.hasAttribute("role")) el.setAttribute("role", "group");
        if (!el.hasAttribute("aria-label")) {
          var what = el.tagName === "PRE" ? "Código" : el.closest(".math, mjx-container") ? "Fórmula" :
                     el.classList.contains("pst-scrollable-table-container") ? "Tabla" : "Salida";
          el.setAttribute("aria-label", what + " más ancha que la página: se desplaza a los costados");
          el.dataset.leccionLabel = "1";
        }
        updateShadows(el);
      } else if (el.dataset.leccionLabel) {
        el.removeAttribute("aria-label");
        el.removeAttribute("role");
        delete el.dataset.leccionLabel;
        if (el.tagName !== "PRE") el.removeAttribute("tabindex");
      } else if (el.tagName === "MJX-CONTAINER") {
        el.removeAttribute("tabindex");
      }
    });
  }

  function updateShadows(el) {
    el.classList.toggle("hay-mas-izquierda", el.scrollLeft > 1);
    el.classList.toggle("hay-mas-derecha", el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
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
