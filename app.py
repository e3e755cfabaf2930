"""trackkit's app: design a Yummell or Snow Tails track, validate it, race it, compare it.

Run with: streamlit run app.py
"""

import streamlit as st

from trackkit import limits
from trackkit.app import common, home_page

limits.serve_app_limits()  # a web server: the app's stricter cost limits, for every visitor
st.set_page_config(page_title="trackkit · race tracks", page_icon=":material/flag:", layout="wide")
sections = home_page.app_sections()
current = st.navigation(sections, position="hidden")  # the sidebar's links are ours
common.follow_addresses()  # a shared link is opened whichever page it points at
common.sync_address()
common.show_link_error()
menu = st.sidebar.empty()
home_page.show_navigation(sections, menu)
try:
    current.run()
finally:
    home_page.show_navigation(sections, menu)  # the links carry the design the page left
