"""trackkit's app: design a Yummell track, validate it, race it, compare it.

Run with: streamlit run app.py
"""

import streamlit as st

from trackkit.app import common, compare_page, design_page, race_page, tiles_page

st.set_page_config(
    page_title="trackkit · Yummell tracks", page_icon=":material/flag:", layout="wide"
)
pages = [
    st.Page(
        design_page.page,
        title="Design",
        icon=":material/extension:",
        url_path="design",
        default=True,
    ),
    st.Page(race_page.page, title="Race", icon=":material/casino:", url_path="race"),
    st.Page(compare_page.page, title="Compare", icon=":material/leaderboard:", url_path="compare"),
    st.Page(tiles_page.page, title="Tiles", icon=":material/grid_view:", url_path="tiles"),
]
current = st.navigation(pages)
common.design()  # a shared link is opened whichever page it points at
common.sync_address()
common.show_link_error()
current.run()
