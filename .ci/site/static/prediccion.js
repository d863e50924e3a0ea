/* The lesson's prediction questions on the site (.ci/site/predictions_site.py writes them): the answer buttons
 * become live. The first press is the bet: it stays pressed, is said back (data-apuesta) and opens the folded
 * output of the cells that answer it (.tag_apuesta-KEY details); a later press shows that option's sentence,
 * labelled as after the bet (data-veredicto). «Ver la respuesta sin apostar» opens the folds without betting.
 * The no-script list is hidden. */
(function () {
  "use strict";
  function live(box) {
    var key = box.getAttribute("data-clave");
    var buttons = box.querySelectorAll(".prediccion-opcion");
    var answer = box.querySelector(".prediccion-respuesta");
    var later = box.querySelector(".prediccion-despues");
    var bet = null;
    function reveal() {
      document.querySelectorAll(".tag_apuesta-" + key + " details, details.tag_apuesta-" + key).forEach(function (d) { d.open = true; });
    }
    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        if (bet === null) {
          bet = b;
          buttons.forEach(function (o) { o.setAttribute("aria-pressed", o === b ? "true" : "false"); });
          answer.textContent = b.getAttribute("data-apuesta");
          box.querySelector(".prediccion-ver").hidden = true;  // bet: nothing left to see without betting
          reveal();
        } else if (b !== bet) {
          later.textContent = b.getAttribute("data-veredicto");
        }
      });
    });
    box.querySelector(".prediccion-ver").addEventListener("click", reveal);
    box.querySelector(".prediccion-botones").hidden = false;
    box.querySelector(".prediccion-sin-js").hidden = true;
  }
  function start() { document.querySelectorAll(".prediccion-viva").forEach(live); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
