"""The aspects a question can ask: leaflet sections and situations that are no section (food, driving, a missed
dose …), as the question frame (`retrievers.question_frame`), the aspect model and the real-question labels name
them."""

ASPECTS = (
    "efficacy dosage how_to_take timing_food missed_dose duration onset side_effects cautions contraindication "
    "interactions alcohol food_drink driving pregnancy breastfeeding child_use elderly storage expiry comparison "
    "overdose smoking washing".split()
)
