/* The lesson's prediction questions on the site (.ci/site/predictions_site.py writes them): the answer buttons
 * become live. The first press is the bet: it stays pressed, is said back (data-apuesta) and opens the folded
 * output of the cells that answer it (.tag_apuesta-KEY details); a later press shows that option's sentence,
 * labelled as after the bet (data-veredicto). «Ver la respuesta sin apostar» opens the folds without betting.
 * A fold that answers or tells several bets (its classes name each) opens once every one of them is settled, so a
 * bet never opens another's answer. The no-script list is hidden. */
(function () {
  "use strict";
  var settled = {};  // the bets of this page already answered, or seen without betting
  function betsOf(d) {
    var holder = Array.prototype.some.call(d.classList, function (c) { return c.indexOf("tag_apuesta-") === 0; })
      ? d : d.closest('[class*="tag_apuesta-"]');
    return Array.prototype.filter.call(holder ? holder.classList : [], function (c) { return c.indexOf("tag_apuesta-") === 0; })
      .map(function (c) { return c.slice("tag_apuesta-".length); });
  }
  function live(box) {
    var key = box.getAttribute("data-clave");
    var buttons = box.querySelectorAll(".prediccion-opcion");
    var answer = box.querySelector(".prediccion-respuesta");
    var later = box.querySelector(".prediccion-despues");
    var bet = null;
    function reveal() {
      settled[key] = true;
      document.querySelectorAll(".tag_apuesta-" + key + " details, details.tag_apuesta-" + key).forEach(function (d) {
        if (betsOf(d).every(function (k) { return settled[k]; })) d.open = true;
      });
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
