"""What a class report says about each named mistake of the checkers, for a teacher: a short name, the notebook
section that teaches the point, and a question to ask in class. One entry per (exercise, gallery key) of
``helpers.check``; ``tests/test_grading_mistakes.py`` proves it covers every gallery key, that every section is a
heading of the exercise's notebook, and that every other key a checker can give is in ``OTHER``. A key that is in
no gallery of its exercise is «otro error»; what the checker told the student is its gallery ``message``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CATALOGUE", "NOTEBOOKS", "OTHER", "SECTIONS", "Entry", "entry", "other_label"]

# number (an exercise module's ORDER[0]) -> (the notebook's file stem, its title as its first cell gives it)
NOTEBOOKS = {
    1: ("01_ffn", "La feed-forward network"),
    2: ("02_residual_stream", "El residual stream"),
    3: ("03_layernorm", "LayerNorm a mano"),
    4: ("04_encoder_block", "El bloque encoder, contra PyTorch"),
    5: ("05_norm_placement", "Post-norm contra pre-norm"),
}

# headings several entries name (a notebook that renames one changes it here; the test says which)
_EACH_TOKEN = "4. ¿Cada token por su cuenta, o todo el batch?"  # 03
_USE_LOSS = "6. Un GPT con máscara y otro sin ella"  # 04

# exercise -> the section of its «Tu turno» (a markdown heading of its notebook, without the #), where a mistake
# names no other
SECTIONS = {
    "ffn": "2. La FFN del paper",
    "ffn_count": "3. ¿Dónde están los pesos? Contemos parámetros",
    "residual_stack": "1. Sumar en vez de reemplazar",
    "residual_pre": "4. Sin nada en el medio, la salida es una suma",
    "depth_step": "6. 96 capas: cada pieza por separado",
    "layer_norm": "6. Tu LayerNorm, para un batch entero",
    "rms_norm": "7. RMSNorm, la de LLaMA",
    "block_pre": "2. El bloque del paper, en una clase",
    "mask": "5. La máscara causal: de este bloque a GPT",
    "use_loss": _USE_LOSS,
    "block_count": "7. Contar parámetros, hasta GPT-3",
    "gpt_count": "7. Contar parámetros, hasta GPT-3",
    "escape_step": "Salir de la meseta",
    "warmup": "¿Ayuda el warmup?",
}


@dataclass(frozen=True)
class Entry:
    """A named mistake for the teacher: its short name (a figure's label), its section, a question for the class."""

    label: str
    section: str
    question: str


# (exercise, key) -> (short name, section or "" for the exercise's own, question for the class)
CATALOGUE = {
    # 01 · ffn
    ("ffn", "no_activation"): ("sin activación", "", "Si sacamos la ReLU, ¿qué queda de W₂(W₁x + b₁) + b₂? ¿Cuántas "
                                                    "capas lineales son, en realidad?"),
    ("ffn", "activation_last"): ("ReLU después de la segunda lineal", "", "Si la ReLU va al final, ¿puede la FFN "
                                 "devolver un número negativo? ¿Y qué se suma entonces a la corriente?"),
    ("ffn", "activation_first"): ("ReLU sobre la entrada", "", "¿Qué números apaga la ReLU de la FFN del paper: los "
                                  "d_model de la entrada o las d_ff neuronas del medio?"),
    ("ffn", "two_activations"): ("dos ReLU", "", "La salida de la FFN se suma a la corriente: ¿qué perdemos si nunca "
                                 "puede ser negativa?"),
    ("ffn", "gelu"): ("GELU en vez de ReLU", "6. ReLU y GELU", "¿En qué se diferencian ReLU y GELU cerca del cero? "
                      "¿Cuál usa el paper y cuál GPT-2?"),
    ("ffn", "residual_inside"): ("residual adentro de la FFN", "", "¿Quién suma la x: la FFN o el bloque que la "
                                 "envuelve? ¿Qué pasaría si la sumaran los dos?"),
    # 01 · ffn_count
    ("ffn_count", "no_biases"): ("sin sesgos", "", "¿Cuántos números tiene b₁ y cuántos b₂? ¿Por qué no son del "
                                 "mismo tamaño?"),
    ("ffn_count", "no_b2"): ("falta b₂", "", "La segunda lineal devuelve d_model números: ¿cuántos sesgos le suma?"),
    ("ffn_count", "no_b1"): ("falta b₁", "", "La primera lineal tiene d_ff neuronas: ¿cuántos sesgos lleva?"),
    ("ffn_count", "biases_both_d_model"): ("los dos sesgos de d_model", "", "¿Cuántos números devuelve cada lineal? "
                                           "¿Por qué eso decide el tamaño de su sesgo?"),
    ("ffn_count", "biases_both_d_ff"): ("los dos sesgos de d_ff", "", "b₂ se suma a lo que devuelve la segunda "
                                        "lineal: ¿cuántos números son?"),
    ("ffn_count", "one_matrix"): ("una sola matriz", "", "¿Cuántas matrices de pesos tiene la FFN, y de qué forma "
                                  "es cada una?"),
    ("ffn_count", "four_d"): ("d_ff = 4·d_model fijo", "", "El paper usa d_ff = 4·d_model: ¿qué da tu función para un "
                              "modelo con d_ff = 3·d_model?"),
    # 02 · residual_stack
    ("residual_stack", "replaces"): ("reemplaza en vez de sumar", "", "Después de tres subcapas, ¿dónde quedó la x "
                                     "del principio si cada una reemplaza a la corriente? ¿Y si suma?"),
    ("residual_stack", "all_read_input"): ("todas leen la x del principio", "4. Sin nada en el medio, la salida es "
                                           "una suma", "En x₃ = x₀ + F₁(x₀) + F₂(x₁) + F₃(x₂), ¿qué lee F₂? ¿Por qué "
                                           "no F₂(x₀)?"),
    ("residual_stack", "adds_input_each_step"): ("suma la x del principio en cada paso", "4. Sin nada en el medio, la "
                                                 "salida es una suma", "Si cada paso hace h = x + f(h), ¿qué se pierde "
                                                 "de lo que sumaron las subcapas de antes?"),
    ("residual_stack", "reversed"): ("subcapas al revés", "", "¿En qué orden atraviesa la corriente la lista de "
                                     "subcapas? ¿Importa el orden, si cada una lee lo que dejó la anterior?"),
    ("residual_stack", "only_contributions"): ("solo los aportes, sin la x", "4. Sin nada en el medio, la salida es "
                                               "una suma", "Si todas las subcapas devolvieran 0, ¿qué tendría que "
                                               "salir de la pila?"),
    ("residual_stack", "input_twice"): ("la x contada dos veces", "4. Sin nada en el medio, la salida es una suma",
                                        "¿Cuántas veces aparece x₀ en x₃? Contalo en la fórmula de la sección 4."),
    ("residual_stack", "return_in_loop"): ("return adentro del for", "", "¿Qué tiene que devolver la función con "
                                           "una lista vacía de subcapas? ¿Y con una sola?"),
    ("residual_stack", "only_first"): ("solo la primera subcapa", "", "¿Por cuántas subcapas pasa la corriente en una "
                                       "pila de tres? ¿Qué aporte suma cada una?"),
    ("residual_stack", "only_last"): ("solo la última subcapa", "", "Con tres subcapas, ¿cuántos aportes tiene que "
                                      "juntar la corriente?"),
    ("residual_stack", "nothing_applied"): ("no aplica ninguna subcapa", "", "¿Qué le pasa a la corriente al cruzar "
                                            "una subcapa? Escribilo para una, después para dos."),
    ("residual_stack", "multiplies"): ("multiplica en vez de sumar", "", "¿Por qué x + F(x) y no x · F(x)? ¿Qué le "
                                       "pasa a x si F(x) da 0 en cada caso?"),
    ("residual_stack", "list_of_streams"): ("devuelve una lista", "", "¿Qué forma tiene lo que sale de una subcapa? "
                                            "¿Y lo que sale de la pila entera?"),
    # 02 · residual_pre
    ("residual_pre", "post_norm"): ("post-norm en vez de pre-norm", "", "En post-norm, ¿sigue siendo la salida x₀ "
                                    "más los aportes? ¿Y en pre-norm?"),
    ("residual_pre", "normalized_skip"): ("suma la x normalizada", "", "En pre-norm, ¿qué viaja por el camino "
                                          "residual: x o LN(x)? ¿Qué cambiaría si fuera LN(x)?"),
    ("residual_pre", "norm_on_output"): ("normaliza la salida de la subcapa", "", "¿Pre-norm normaliza lo que entra a "
                                         "la subcapa o lo que sale? ¿Dónde lo dice su nombre?"),
    ("residual_pre", "sandwich"): ("sandwich-norm", "", "¿Cuántas LayerNorm lleva un paso pre-norm? ¿Y uno "
                                   "sandwich?"),
    ("residual_pre", "pre_and_post"): ("normaliza también la suma", "", "Si normalizás la suma, ¿sigue siendo la "
                                       "salida x más el aporte de la subcapa?"),
    ("residual_pre", "norm_twice"): ("ln dos veces", "", "¿Da lo mismo aplicar una LayerNorm dos veces seguidas que "
                                     "una sola? ¿Y si su γ vale 2?"),
    ("residual_pre", "no_residual"): ("sin residual", "", "¿Dónde está la x en F(LN(x))? ¿Qué le pasa a la "
                                      "corriente si la subcapa aprende a devolver 0?"),
    ("residual_pre", "post_no_residual"): ("sin residual, LN a la salida", "", "Escribí en el pizarrón post-norm, "
                                           "pre-norm y LN(F(x)): ¿cuál no tiene residual?"),
    ("residual_pre", "no_norm"): ("sin LayerNorm", "", "En pre-norm, ¿qué lee la subcapa: la corriente tal cual o "
                                  "normalizada?"),
    ("residual_pre", "new_layer_norm"): ("una LayerNorm nueva en vez de ln", "", "¿Qué pierde una LayerNorm creada "
                                         "adentro de la función? ¿Dónde quedan los γ y β que aprendió la capa?"),
    # 02 · depth_step
    ("depth_step", "swapped"): ("residual y norma cruzados", "", "Con residual=True y norma=False, ¿qué tiene que "
                                "salir? ¿Y al revés?"),
    ("depth_step", "norm_after"): ("post-norm: LayerNorm después", "", "¿Dónde va la LayerNorm en este ejercicio: a "
                                   "la entrada de la subcapa o después de la suma? ¿Cómo se llama cada una?"),
    ("depth_step", "post_norm_both"): ("post-norm con las dos piezas", "", "Con las dos piezas, ¿qué escribiste en "
                                       "paso_pre? ¿Por qué la pila «las dos» es pre-norm?"),
    ("depth_step", "normalized_skip"): ("suma la h normalizada", "", "Con las dos piezas, ¿qué viaja por el "
                                        "residual: h o ln(h)?"),
    ("depth_step", "norm_ignored"): ("no usa ln", "", "Con norma=True, ¿qué lee la subcapa?"),
    ("depth_step", "residual_ignored"): ("nunca suma la corriente", "", "Con residual=True, ¿qué se suma, y a qué?"),
    ("depth_step", "always_residual"): ("suma siempre", "", "Con residual=False, ¿qué queda de h después de la "
                                        "capa?"),
    ("depth_step", "always_norm"): ("normaliza siempre", "", "Con norma=False, ¿qué lee la subcapa?"),
    ("depth_step", "norm_replaces_residual"): ("devuelve una sola pieza", "", "Con las dos piezas, escribí la salida "
                                               "como fórmula: ¿dónde aparece h y dónde ln(h)?"),
    # 03 · layer_norm
    ("layer_norm", "unbiased_variance"): ("varianza con d − 1", "1. Cuatro números", "¿Por qué LayerNorm divide por d "
                                          "y no por d − 1? ¿Qué da x.var() para [2, 4, 6, 8], y qué da dividiendo "
                                          "por 4?"),
    ("layer_norm", "std_plus_eps"): ("d − 1 y ε afuera (x.std() + ε)", "1. Cuatro números", "¿Qué dos convenciones "
                                     "usa The Annotated Transformer? ¿Cuál de las dos se nota con un token casi "
                                     "constante?"),
    ("layer_norm", "eps_outside"): ("ε afuera de la raíz", "3. ¿Para qué está ε?", "Con el token [1.000, 1.001, "
                                    "1.002, 1.003], ¿qué cambia entre √(σ² + ε) y σ + ε? ¿Cuál lo deja con desvío "
                                    "cerca de 1?"),
    ("layer_norm", "no_eps"): ("sin ε", "3. ¿Para qué está ε?", "¿Qué sale de LayerNorm para un token de cuatro "
                               "números iguales si no hay ε? ¿Qué le pasa al entrenamiento después?"),
    ("layer_norm", "fixed_eps"): ("ε fijo", "", "¿Para qué recibe eps la función? ¿Qué pasa si alguien la llama con "
                                  "otro valor?"),
    ("layer_norm", "hard_coded_d"): ("divide por 4 fijo", "", "¿Qué hace .mean(dim=-1) que no hace dividir por 4? "
                                     "Probalo con un token de d = 8."),
    ("layer_norm", "batch_axis"): ("normaliza sobre el batch", _EACH_TOKEN, "En un "
                                   "batch de 8 ejemplos cambiamos solo el ejemplo 1: ¿cambia la salida del ejemplo 0 "
                                   "con LayerNorm? ¿Y con BatchNorm?"),
    ("layer_norm", "token_axis"): ("normaliza sobre los tokens", _EACH_TOKEN,
                                   "¿Sobre qué números saca LayerNorm cada media: los d de un token o los T tokens de "
                                   "la frase? ¿Qué pasaría al cambiar un solo token?"),
    ("layer_norm", "all_axes"): ("una media para todo el tensor", "", "Una frase de forma (2, 4): ¿qué forma tiene "
                                 "frase.mean()? ¿Y frase.mean(dim=-1)?"),
    ("layer_norm", "no_gamma"): ("sin γ", "5. ¿Para qué sirven γ y β?", "¿Para qué sirven γ y β si LayerNorm ya dejó "
                                 "media 0 y desvío 1? ¿Qué hace γ = 0 en una dimensión?"),
    ("layer_norm", "no_beta"): ("sin β", "5. ¿Para qué sirven γ y β?", "¿Qué hace β con la salida? ¿Con qué valor "
                                "arranca en una LayerNorm recién creada?"),
    ("layer_norm", "no_affine"): ("sin γ ni β", "5. ¿Para qué sirven γ y β?", "¿Por qué el normalizado solo da lo "
                                  "mismo que una nn.LayerNorm recién creada, y deja de dar igual al entrenar?"),
    ("layer_norm", "swapped_affine"): ("γ y β cambiados", "5. ¿Para qué sirven γ y β?", "¿Cuál de γ y β escala y "
                                       "cuál corre? ¿Con qué valor arranca cada uno?"),
    ("layer_norm", "beta_inside"): ("β antes de γ", "5. ¿Para qué sirven γ y β?", "γ · (x̂ + β) o γ · x̂ + β: con "
                                    "γ = 2 y β = 1, ¿cuánto da cada una para x̂ = 0?"),
    # 03 · rms_norm
    ("rms_norm", "centered"): ("resta la media", "", "¿Qué hace LayerNorm que RMSNorm no hace? ¿Cuánto da la RMS de "
                               "[2, 4, 6, 8]?"),
    ("rms_norm", "eps_outside"): ("ε afuera de la raíz", "", "¿Dónde va ε en RMSNorm, adentro o afuera de la raíz? "
                                  "¿Con qué tokens se nota la diferencia?"),
    ("rms_norm", "no_eps"): ("sin ε", "", "¿Qué sale de RMSNorm para un token de ceros si no hay ε?"),
    ("rms_norm", "fixed_eps"): ("ε fijo", "", "¿Para qué recibe eps la función? ¿Qué pasa si alguien la llama con "
                                "eps=1e-6?"),
    ("rms_norm", "no_sqrt"): ("sin la raíz", "", "Para [2, 4, 6, 8], ¿cuánto da la media de los cuadrados y cuánto "
                              "su raíz? ¿Cuál deja al token con RMS 1?"),
    ("rms_norm", "divided_by_norm"): ("divide por la norma ‖x‖", "", "¿Cuánto vale ‖x‖ y cuánto la RMS para "
                                      "[2, 4, 6, 8]? ¿Qué relación hay entre las dos?"),
    ("rms_norm", "norm_eps_outside"): ("divide por ‖x‖ + ε", "", "Para [2, 4, 6, 8], ¿cuánto vale ‖x‖ y cuánto la "
                                       "RMS? ¿Y dónde va ε: sumado a ‖x‖, o adentro de la raíz?"),
    ("rms_norm", "normalize"): ("F.normalize (norma 1, no RMS 1)", "", "¿Con qué queda un token después de "
                                "F.normalize: norma 1 o RMS 1? ¿Cuánto vale cada una para [2, 4, 6, 8]?"),
    ("rms_norm", "normalize_eps"): ("‖x‖ con ε de piso (clamp)", "", "¿Qué hace el eps de F.normalize: se suma "
                                    "adentro de la raíz o pone un piso a ‖x‖? ¿Cuándo se nota la diferencia?"),
    ("rms_norm", "sum_not_mean"): ("suma de cuadrados, no media", "", "¿Por qué la RMS usa la media de los cuadrados "
                                   "y no su suma? ¿Qué le pasa a la suma cuando d crece?"),
    ("rms_norm", "no_gamma"): ("sin γ", "", "¿Qué aprende RMSNorm? ¿Cuántos números tiene una de d = 4 096?"),
    ("rms_norm", "batch_axis"): ("promedia sobre el batch", _EACH_TOKEN, "¿De quién "
                                 "es cada RMS: de un token, o de una posición a lo largo del batch?"),
    ("rms_norm", "mean_abs"): ("media de los valores absolutos", "", "Para [2, 4, 6, 8], ¿cuánto da la media de los "
                               "valores absolutos y cuánto la RMS?"),
    # 04 · block_pre
    ("block_pre", "post_norm"): ("post-norm en vez de pre-norm", "1. Dónde va la normalización", "Escribí las líneas "
                                 "de post-norm y de pre-norm: ¿en cuál la corriente entera pasa por una LayerNorm en "
                                 "cada subcapa?"),
    ("block_pre", "no_residuals"): ("sin residuales", "", "¿Qué le pasa a la x que entra al bloque si cada subcapa la "
                                    "reemplaza?"),
    ("block_pre", "no_attention_residual"): ("sin el residual de la atención", "", "¿Cuántas sumas tiene un bloque? "
                                             "¿Qué se suma en cada una?"),
    ("block_pre", "no_ffn_residual"): ("sin el residual de la FFN", "", "Después de la FFN, ¿qué se suma, y a qué?"),
    ("block_pre", "normalized_skip"): ("suma la x normalizada", "1. Dónde va la normalización", "En pre-norm, ¿qué "
                                       "viaja por el residual: x o LN(x)?"),
    ("block_pre", "parallel"): ("las dos subcapas leen la misma x", "", "¿Qué lee la FFN: la x que entró al bloque o "
                                "la corriente que ya tiene sumada la atención?"),
    ("block_pre", "ln1_twice"): ("ln1 dos veces", "", "¿Por qué cada subcapa tiene su propia LayerNorm? ¿Qué aprende "
                                 "cada una?"),
    ("block_pre", "swapped_norms"): ("ln1 y ln2 cruzadas", "", "¿Qué LayerNorm va con qué subcapa? ¿Se nota el cambio "
                                     "con un bloque recién creado?"),
    ("block_pre", "skip_ln2"): ("falta ln2", "1. Dónde va la normalización", "En pre-norm, ¿cuántas LayerNorm lleva "
                                "un bloque y dónde va cada una?"),
    ("block_pre", "skip_ln1"): ("falta ln1", "1. Dónde va la normalización", "En pre-norm, ¿cuántas LayerNorm lleva "
                                "un bloque y dónde va cada una?"),
    ("block_pre", "sandwich"): ("sandwich-norm", "3. Las tres variantes en una clase", "Post-norm, pre-norm y "
                                "sandwich: ¿cuántas LayerNorm lleva cada bloque, y dónde?"),
    ("block_pre", "pre_and_post"): ("normaliza también la suma", "1. Dónde va la normalización", "Si además "
                                    "normalizás la suma, ¿la corriente sigue siendo x más los aportes?"),
    ("block_pre", "final_layer_norm"): ("LayerNorm al final del bloque", "4. ¿Hace falta una LayerNorm al "
                                        "final?", "¿Por qué pre-norm necesita una LayerNorm al final de la pila, y una "
                                        "sola?"),
    ("block_pre", "dropout_unused"): ("no usa el dropout", "", "¿Dónde pone el paper el dropout de cada subcapa? ¿Por "
                                      "qué en evaluación no se nota si falta?"),
    ("block_pre", "dropout_on_sum"): ("dropout sobre la suma", "", "¿Por qué el dropout va sobre lo que sale de la "
                                      "subcapa y no sobre x + subcapa(…)?"),
    ("block_pre", "dropout_attention_only"): ("dropout solo en la atención", "", "¿Cuántas veces aplica self.drop el "
                                              "forward, y sobre qué?"),
    ("block_pre", "dropout_ffn_only"): ("dropout solo en la FFN", "", "¿Cuántas veces aplica self.drop el forward, y "
                                        "sobre qué?"),
    ("block_pre", "dropout_on_sublayer_input"): ("dropout a la entrada de la subcapa", "", "¿El dropout del paper va "
                                                 "a la entrada de la subcapa o a su salida?"),
    ("block_pre", "dropout_before_norm"): ("dropout antes de la LayerNorm", "", "¿El dropout del paper va sobre la "
                                           "corriente que entra o sobre lo que sale de la subcapa?"),
    ("block_pre", "dropout_twice"): ("dropout dos veces", "", "Si aplicás dos veces seguidas un dropout de p = 0.1, "
                                     "¿qué fracción queda apagada?"),
    ("block_pre", "dropout_fixed_p"): ("p del dropout fija", "", "¿Por qué self.drop y no F.dropout(x, 0.1)? ¿Qué pasa "
                                       "con BloquePre(dropout=0.3)?"),
    # 04 · mask
    ("mask", "flipped"): ("dada vuelta", "", "En la fila i, la del token que mira, ¿qué columnas tiene prohibidas? "
                          "Dibujá la máscara de T = 4."),
    ("mask", "hides_diagonal"): ("tapa la diagonal", "", "¿Puede un token mirarse a sí mismo? ¿Qué le pasa al token 0 "
                                 "si no?"),
    ("mask", "true_allowed"): ("True en lo permitido", "", "En nn.MultiheadAttention, ¿True quiere decir permitido o "
                               "prohibido?"),
    ("mask", "nothing_blocked"): ("no prohíbe nada", "", "¿Qué ve el token 2 con una máscara toda False?"),
    ("mask", "float_ones_above"): ("0 y 1 en float, 1 arriba", "", "¿Qué hace PyTorch con una máscara float: la suma a "
                                   "los puntajes o la usa para tapar? ¿Qué hace entonces un 1?"),
    ("mask", "float_ones_below"): ("0 y 1 en float, 1 abajo", "", "¿Qué hace PyTorch con una máscara float: la suma a "
                                   "los puntajes o la usa para tapar? ¿Qué hace entonces un 1?"),
    ("mask", "float_swapped"): ("−∞ en lo permitido", "", "En una máscara float, ¿qué valor deja mirar y cuál "
                                "prohíbe? ¿Por qué −∞?"),
    ("mask", "float_flipped"): ("float, dada vuelta", "", "En la fila i, la del token que mira, ¿qué columnas llevan "
                                "−∞? Dibujá la máscara de T = 4."),
    ("mask", "float_hides_diagonal"): ("float, −∞ en la diagonal", "", "¿Puede un token mirarse a sí mismo? ¿Qué le "
                                       "pasa al token 0 si no?"),
    ("mask", "float_minus_one"): ("−1 en vez de −∞", "", "Después del softmax, ¿qué peso le queda a un puntaje al que "
                                  "le restaste 1? ¿Y al que le sumaste −∞?"),
    # 04 · use_loss
    ("use_loss", "no_mask"): ("sin máscara", "", "Al escribir, ¿puede el modelo ver la palabra que tiene que adivinar? "
                              "¿Qué pérdida da el que aprendió a copiar cuando no puede?"),
    ("use_loss", "no_shift"): ("sin correr las respuestas", "", "¿Qué tiene que adivinar el lugar i: la palabra i o la "
                               "i + 1? ¿Qué parte de ids son las entradas y qué parte las respuestas?"),
    ("use_loss", "all_ids"): ("le pasa las 16 palabras", "", "¿Cuántas posiciones tiene el modelo (modelo.ctx) y "
                              "cuántas palabras cada secuencia? ¿Cuál no necesita leer nunca?"),
    ("use_loss", "backwards"): ("al revés", "", "¿Hacia dónde lee un GPT? ¿Qué serían entradas y respuestas si leyera "
                                "al revés?"),
    ("use_loss", "bits"): ("en bits, no en nats", "", "¿En qué unidad mide la lección la pérdida? ¿Cuánto es ln 12 en "
                           "nats, y en bits?"),
    ("use_loss", "sum"): ("suma en vez de promedio", "", "¿Por qué se promedia la pérdida por palabra? ¿Qué le pasaría "
                          "a una suma con el doble de secuencias?"),
    ("use_loss", "per_sequence"): ("promedio por secuencia", "", "¿Es lo mismo promediar por secuencia que por "
                                   "palabra? ¿Cuántas palabras adivina cada secuencia?"),
    ("use_loss", "last_only"): ("solo la última palabra", "", "¿Cuántas predicciones hace el modelo en una secuencia "
                                "de 16 palabras? ¿Cuáles cuentan en la pérdida?"),
    ("use_loss", "softmax_twice"): ("softmax antes de cross_entropy", "", "¿Qué espera F.cross_entropy: logits o "
                                    "probabilidades? ¿Qué hace ella por dentro?"),
    # 04 · block_count
    ("block_count", "missing_4d"): ("le faltan 4d", "", "¿Qué piezas de un bloque miden d cada una? Contalas: sesgos "
                                    "de la atención, γ y β de cada LayerNorm."),
    ("block_count", "no_w_o"): ("falta W_O", "", "¿Cuántas proyecciones tiene la atención? ¿Para qué está la "
                                "cuarta?"),
    ("block_count", "layer_norms_2d"): ("LayerNorm: 2d en vez de 4d", "", "¿Cuántas LayerNorm tiene un bloque y "
                                        "cuántos números aprende cada una?"),
    ("block_count", "ffn_no_biases"): ("sin los sesgos de la FFN", "", "¿Cuántos sesgos tiene la FFN y de qué tamaño "
                                       "es cada uno?"),
    ("block_count", "no_biases"): ("sin sesgos", "", "¿Qué piezas del bloque llevan sesgo? ¿Cuántos números suma cada "
                                   "una?"),
    ("block_count", "four_d"): ("d_ff = 4·d_model fijo", "", "¿Para qué recibe d_ff la función, si el paper usa "
                                "4·d_model?"),
    ("block_count", "per_head"): ("atención multiplicada por las cabezas", "", "Con 8 cabezas de d/8, ¿cuántos "
                                  "números tiene W_Q en total?"),
    # 04 · gpt_count
    ("gpt_count", "no_final_layer_norm"): ("sin la LayerNorm final", "4. ¿Hace falta una LayerNorm al final?",
                                           "¿Dónde está la LayerNorm final de GPT-2, y por qué la necesita un modelo "
                                           "pre-norm?"),
    ("gpt_count", "no_positions"): ("sin embeddings de posición", "", "¿Cómo sabe GPT-2 en qué posición está cada "
                                    "token? ¿Cuántos números aprende para eso?"),
    ("gpt_count", "untied_output"): ("salida sin atar", "", "¿Qué quiere decir que la salida está atada al embedding? "
                                     "¿Cuántos parámetros ahorra en GPT-2 small?"),
    ("gpt_count", "layer_norm_d"): ("LayerNorm con d", "", "¿Cuántos números aprende una LayerNorm de d "
                                    "dimensiones?"),
    ("gpt_count", "missing_4d_per_block"): ("le faltan 4d por bloque", "", "Contá, por bloque, lo que mide d: sesgos "
                                            "de la atención y γ y β de cada LayerNorm. ¿Cuánto suman?"),
    ("gpt_count", "no_biases"): ("sin sesgos", "", "¿Qué sesgos tiene un bloque de GPT-2 y cuántos números suman?"),
    ("gpt_count", "one_block"): ("un solo bloque", "", "¿Los n_layers bloques comparten pesos? ¿Cuántos parámetros "
                                 "aporta cada uno?"),
    # 05 · escape_step
    ("escape_step", "strict"): ("> en vez de ≥", "", "Si el acierto es justo 60 % y el umbral 0.6, ¿salió de la "
                                "meseta?"),
    ("escape_step", "index"): ("la posición, no el paso", "", "¿Qué hay en pasos y qué en aciertos? ¿Qué devolvés: "
                               "una posición o un paso?"),
    ("escape_step", "step_from_index"): ("paso calculado con la posición", "", "¿Por qué no calcular el paso con la "
                                         "posición? ¿Qué pasa si las evaluaciones no están cada 25 pasos?"),
    ("escape_step", "accuracy"): ("devuelve el acierto", "", "¿Qué pide la función: el acierto al salir, o el paso en "
                                  "que salió?"),
    ("escape_step", "last"): ("la última vez sobre el umbral", "", "Si una corrida llega al 60 % en el paso 300, cae y "
                              "vuelve en el 500, ¿en qué paso salió de la meseta?"),
    ("escape_step", "stays_above"): ("desde cuándo se queda arriba", "", "Si una corrida llega al 60 % en el paso "
                                     "300, cae y vuelve en el 500, ¿en qué paso salió de la meseta?"),
    ("escape_step", "last_when_never"): ("último paso si nunca sale", "", "¿Qué tiene que devolver una corrida que "
                                         "nunca llega al umbral? ¿Por qué no su último paso?"),
    ("escape_step", "minus_one"): ("−1 si nunca sale", "", "¿Por qué None y no −1 para «no salió»? ¿Qué pasaría al "
                                   "sacar una mediana con −1?"),
    ("escape_step", "fixed_threshold"): ("umbral fijo", "", "¿Para qué recibe umbral la función? ¿Qué cambia con un "
                                         "umbral de 90 %?"),
    # 05 · warmup
    ("warmup", "zero_based"): ("pasos contados desde 0", "", "Con warmup = 4 y lr = 0.001, ¿cuánto vale el learning "
                               "rate en el paso 1? ¿Y en el paso 4?"),
    ("warmup", "starts_at_zero"): ("primer paso con lr 0", "", "¿Puede el primer paso tener learning rate 0? ¿Qué "
                                   "aprendería el modelo en ese paso?"),
    ("warmup", "no_plateau"): ("no se queda en lr", "", "¿Qué pasa con el learning rate después de warmup pasos, en "
                               "este esquema?"),
    ("warmup", "noam_decay"): ("baja como 1/√paso", "", "¿En qué se diferencia este warmup del esquema del paper de "
                               "2017? ¿Qué pasa después del pico en cada uno?"),
    ("warmup", "constant"): ("sin warmup", "", "Con warmup = 100, ¿cuánto vale el learning rate en el paso 1?"),
    ("warmup", "fixed_lr"): ("lr fijo", "", "¿Para qué recibe lr la función? ¿Qué da con lr = 0.01?"),
    ("warmup", "fixed_warmup"): ("warmup fijo", "", "¿Qué da tu función con warmup = 0, sin warmup? ¿Y con "
                                 "warmup = 500?"),
}

# Keys a checker gives that name no gallery mistake (its own problems, and the grader's): all «otro error», each
# with what it means. "missing", "error" and "not_graded" are the grader's (helpers.grading._grade).
OTHER = {
    "raised": "su código falla al correr",
    "timeout": "no terminó a tiempo",
    "unknown": "un error que el control no reconoce",
    "explained": "falta o sobra un término que no es de los típicos",
    "no_return": "no devuelve nada",
    "wrong_input": "le pasó al control otra cosa que la pedida",
    "bad_call": "llamó al control sin su respuesta",
    "checker_error": "el control no pudo evaluarla",
    "mutated_input": "cambia lo que recibe (una operación in-place)",
    "hard_coded": "da un número fijo para todos los tamaños",
    "not_a_module": "su clase no hereda de nn.Module",
    "type": "devuelve otro tipo de cosa",
    "shape": "devuelve otra forma",
    "dtype": "devuelve otro tipo de número",
    "meta_tensor": "devuelve un tensor sin números (meta)",
    "non_integral": "da una cantidad con decimales",
    "not_none": "da un paso donde va None",
    "int_mask": "una máscara de enteros",
    "instance_not_class": "le pasó un objeto en vez de la clase",
    "unregistered_layers": "capas en una lista de Python, sin registrar",
    "linear_count": "otra cantidad de capas lineales",
    "hard_coded_size": "un tamaño fijo",
    "hidden_is_d_model": "capa oculta de d_model neuronas",
    "hidden_is_4d": "capa oculta de 4·d_model fijo",
    "layer_sizes": "lineales que no encadenan sus tamaños",
    "mixes_tokens": "mezcla tokens",
    "parameter_count": "calcula bien, pero con otra cantidad de parámetros",
    "attention_not_batch_first": "una atención sin batch_first",
    "dropout_in_ffn": "un dropout de más adentro de la FFN",
    "missing_parts": "le faltan piezas del __init__",
    "init_changed": "cambió el __init__ del enunciado",
    "dropout_always_on": "aplica el dropout también en evaluación",
    "dropout_placement": "el dropout en otro lugar",
    "missing": "faltaba o falló la celda de su respuesta",
    "error": "la prueba misma falló",
    "not_graded": "no se calificó: el kernel se cortó antes",
}


def entry(exercise: str, key: str) -> Entry | None:
    """The catalogue's entry for a gallery mistake of ``exercise``; None for any other key (then «otro error»)."""
    found = CATALOGUE.get((exercise, key))
    if found is None:
        return None
    label, section, question = found
    return Entry(label, section or SECTIONS[exercise], question)


def other_label(key: str) -> str:
    """What a non-gallery key means, in Spanish; a key nobody wrote down is shown as it is."""
    return OTHER.get(key, f"«{key}»")
