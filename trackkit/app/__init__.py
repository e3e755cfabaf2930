"""The Streamlit app's pages. Each page only reads input, calls the library and shows the
result: everything it shows can be reproduced with the CLI."""
