# The same setup as README's first command (scripts/run), in a container.
#   docker build -t behave . && docker run -p 8080:8080 behave
FROM debian:bookworm

WORKDIR /opt/ngx_http_behave_module
COPY . .

# install and build at image time; scripts/run finds both done and starts
RUN scripts/deps && scripts/build

ENV BEHAVE_LISTEN=0.0.0.0:8080
EXPOSE 8080
CMD ["scripts/run", "foreground"]
